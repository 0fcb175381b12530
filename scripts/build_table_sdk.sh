#!/usr/bin/env bash
# Rebuild table/static/vendor/discord-sdk.js, Discord's Embedded App SDK as one ES module, from npm with esbuild.
# Only whoever updates the SDK runs this (it needs Node and npm); the bot serves the committed file and never
# needs Node. Pin the versions here, run it, look at the diff, run tests/table, commit the result.
set -euo pipefail
SDK_VERSION=2.5.0
ESBUILD_VERSION=0.28.2
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
npm init -y >/dev/null
npm install --no-audit --no-fund --silent "@discord/embedded-app-sdk@$SDK_VERSION" "esbuild@$ESBUILD_VERSION"
echo "export { DiscordSDK, Events } from '@discord/embedded-app-sdk';" > entry.js
out="$root/table/static/vendor/discord-sdk.js"
{
  echo "// @discord/embedded-app-sdk $SDK_VERSION (MIT, Discord Inc.), bundled by scripts/build_table_sdk.sh with esbuild $ESBUILD_VERSION."
  node_modules/.bin/esbuild entry.js --bundle --format=esm --minify --target=es2020 --legal-comments=inline
} > "$out"
echo "wrote $out ($(wc -c < "$out") bytes)"
