#!/bin/sh
# Usage: lingering.sh PIDFILE. Starts a child of its own, writes "SCRIPT_PID CHILD_PID" to
# PIDFILE, prints one line and then takes its time: stopping the reply must stop both.
sleep 30 &
echo "$$ $!" > "$1.partial"
mv "$1.partial" "$1"
echo "Here is the first part."
sleep 30
echo "This is never said."
