// Run a Python file of firmware/ inside real MicroPython (the WebAssembly
// port, npm package @micropython/micropython-webassembly-pyscript, pinned in
// package.json). Every firmware/*.py and vectors.json is copied to /fw in
// MicroPython's in-memory file system first, so `import proto` works as on
// the Pico. Usage: node firmware/mpy_run.mjs selftest.py
// Exit status 0 when the script ran to the end, 1 on a Python exception.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const here = dirname(fileURLToPath(import.meta.url));
const script = process.argv[2];
if (!script) {
  console.error("usage: node mpy_run.mjs SCRIPT.py");
  process.exit(2);
}
const decoder = new TextDecoder();
const mp = await loadMicroPython({
  heapsize: 4 * 1024 * 1024,
  linebuffer: false,
  stdout: (d) => process.stdout.write(typeof d === "string" ? d : decoder.decode(d)),
  stderr: (d) => process.stderr.write(typeof d === "string" ? d : decoder.decode(d)),
});
mp.FS.mkdir("/fw");
for (const name of readdirSync(here)) {
  if (name.endsWith(".py") || name === "vectors.json") {
    mp.FS.writeFile(join("/fw", name), readFileSync(join(here, name)));
  }
}
try {
  mp.runPython("import sys\nsys.path.insert(0, '/fw')\n");
  mp.runPython(readFileSync(join(here, script), "utf8"));
} catch (err) {
  process.stderr.write(String(err && err.message ? err.message : err) + "\n");
  process.exit(1);
}
