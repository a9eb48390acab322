"""JAX's persistent compilation cache for the az player, in gamelearn's data directory.

Compiling the self-play batch and the search takes tens of seconds on a CPU, longer than a short
training run plays; with the cache a second run (or a player made again) loads the compiled code
instead.  It is switched on when an az player first searches or trains, never when gamelearn is
imported or a player is made (a spec refused once the player is made, such as a name nothing is
kept under, leaves no folder behind), and not at all where JAX was already given a cache directory
(``JAX_COMPILATION_CACHE_DIR``).
"""

from __future__ import annotations

from pathlib import Path

from ...paths import data_dir

#: The cache's folder under the data directory.
FOLDER = "jax-cache"
#: Functions compiling faster than this are not worth a file (JAX's default is 1 s).
MIN_COMPILE_SECONDS = 0.5


def enable_compilation_cache() -> Path | None:
    """Point JAX's persistent compilation cache at the data directory's ``jax-cache`` folder, made
    here (once a process: later calls find the setting); the folder, or None where JAX already has
    one or the folder cannot be made (the cache is then left off: only slower)."""
    # JAX, the az extra: this module's constants are read without it (the tests' shared cache)
    import jax

    if getattr(jax.config, "jax_compilation_cache_dir", None):  # noqa: B009 - not in JAX's type stubs
        return None
    folder = data_dir() / FOLDER
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    jax.config.update("jax_compilation_cache_dir", str(folder))
    jax.config.update("jax_persistent_cache_min_compile_time_secs", MIN_COMPILE_SECONDS)
    return folder
