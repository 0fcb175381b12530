"""Measure Ice Floe's answer latency with 1, 50, 100 and 200 concurrent games of all three kinds.

Run from the repository root:  .venv/bin/python -m bench.latency [--levels 1,50,100,200] [--saved 0,1000,10000]
[--kinds fish,tank,flippers] [--turns 12] [--think 2.0] [--runs paced,closed] [--setups sqlite,postgres]

Games of the chosen kinds are opened in turn (fish, tank, flippers, fish, ...) with 2, 3 and 4 players in turn,
and played as people play them: slash commands with their arguments picked from the bot's autocomplete, the
board's select menus (10 Gallon Tank takes, Flippers Leaders) and the Gourami menu in a Tank player's DMs. Who
acts next is read from the game's saved state (the bot's database, read-only), as a player reads the table.

--saved N fills the bot's database before it starts with N saved games (bench/seed.py: engine-played games of
all three kinds, 2-4 players, 70% finished with results, the rest mid- or late-game, with their action logs,
over 97 servers and N channels); a comma-separated list measures every level on each. The quick default is
--saved 0, paced; the full matrix (--saved 0,1000,10000) takes about 15 minutes on a busy 2-core machine.

--setups sqlite,postgres measures, level by level, one bot process on SQLite beside two bot processes (one
shard each) sharing a throwaway PostgreSQL server started for the run (tests/postgres.py; needs PostgreSQL
in /usr/lib/postgresql), e.g.  --levels 50,200 --setups sqlite,postgres; saved games are copied into it with
storage.copy. --database postgresql://... runs the postgres setup on that server instead (a new schema per level).
--burst takes one setup: --burst 3 --levels 200 --saved 5000 --setups postgres (or --database URL) runs the
burst on --processes shard processes sharing PostgreSQL; every row says the database round trips and commits
per saved move. DB_POOL_SIZE in the environment sets each bot process's pool, as it does for the bot.

The fake Discord of tests/harness and the simulated players run in this process; the real bot (create_bot,
real discord.py) runs in a child process (bench/bot_process.py) that connects to the fake on 127.0.0.1, so
the figures are the bot's, not the harness's. Latencies are the fake's own records: from the moment it sent
the interaction to the moment the bot's acknowledgement or visible answer reached it. The bot process watches
its own event loop for stalls and reports them, with its CPU time and garbage collection pauses.

Runs per level (--runs, default paced):
  paced        players think between actions, --think seconds on average (uniformly 0.5x-1.5x), plus a
               quarter of that while typing between autocomplete requests, and the games open at random
               within --stagger seconds: that many games being played at once;
  closed loop  every player fires its next request the instant the previous answer arrives (stress: the
               figures then measure how many commands per second the bot can take on this machine).

--in-process runs the bot in this process and event loop instead, as the first version of this benchmark
did (its stall figure then includes the harness). --profile DIR writes cProfile stats of the bot process
(event loop, and to_thread workers in FILE.threads) for each level and prints the top functions; --stacks
samples where the bot's event-loop thread was whenever it was late by more than 10 ms.

Rooms, imports running one way: samples (what a level measured) <- fake (the fake Discord as watched, the saved
games read-only) <- players (simulated tables) <- bots (the bot process or processes) <- levels (one level) <-
report (table rows) <- cli (flags, every level); __main__ runs cli.main.
"""
