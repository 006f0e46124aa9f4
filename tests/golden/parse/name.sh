#!/bin/sh
# tests/golden/parse/name.sh KIND ARG - the golden file name of a case.
case $1 in
sample|data) basename "$2" .log ;;
peer) echo "peer-$2" | tr '/' '_' ;;
esac
