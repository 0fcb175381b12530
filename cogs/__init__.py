"""Slash-command cogs: thin adapters from Discord interactions to the shared game flow."""
