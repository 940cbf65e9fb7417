#!/bin/sh
# Usage: streaming.sh DIR. Prints a line, waits a second, marks DIR/second, prints another: a
# reader that streams has the first line before the mark exists.
echo "The first line."
sleep 1
touch "$1/second"
echo "The second line."
