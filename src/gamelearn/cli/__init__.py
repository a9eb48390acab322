"""The `gamelearn` command."""
