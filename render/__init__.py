"""Turn game views into PNG images: pure functions, no Discord."""
