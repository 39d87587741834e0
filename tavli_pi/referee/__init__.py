"""referee"""
