"""Pure, deterministic game rules: no Discord, no I/O, no clock."""
