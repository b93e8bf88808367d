"""What the benchmarks and the tests both use to run the real thing: a server process on
a free loopback port (``live_server``), PostgreSQL, Redis and nginx started from
Debian's binaries (``services``), and raw clients that misbehave on purpose
(``hostile_clients``). The tests import them as ``benchmarks._support.*``; a benchmark
run as ``python benchmarks/<name>.py`` imports them as ``_support.*``."""
