"""Run the latency benchmark: python -m bench.latency."""

from __future__ import annotations

import asyncio

from bench.latency.cli import main

if __name__ == "__main__":
    asyncio.run(main())
