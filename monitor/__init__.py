"""Serve the bot's health check and Prometheus metrics over HTTP (only when METRICS_PORT is set)."""
