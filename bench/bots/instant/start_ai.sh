#!/bin/bash
cd "$(dirname "$0")"
exec node bot.mjs "$1"
