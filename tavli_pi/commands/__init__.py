"""One module per ``tavli-pi`` subcommand (see ``tavli_pi.cli``)."""
