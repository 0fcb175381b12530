"""The table: a Discord Activity where a game is played by tapping its board, served by the bot process.

`table/server.py` (aiohttp: the page, the OAuth2 code exchange, the WebSocket), `table/auth.py` (Discord's
token and user endpoints), `table/sessions.py` (tokens bound to a user), `table/hub.py` (who watches which
game, pushed a new state after every saved change, from any process), `table/protocol.py` (the messages),
`table/strings.py` (the page's words) and `table/views/` (what each game's table draws for a seat).
"""
