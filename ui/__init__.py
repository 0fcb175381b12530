"""Discord-side plumbing shared by every game's cog: turn flow, components and replies."""
