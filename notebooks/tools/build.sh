#!/bin/sh
# Regenerate the walkthrough notebooks from notebooks/tools/src and execute
# them in place with goldp (outputs stored in the .ipynb files).
#   notebooks/tools/build.sh [NAME ...]      (from the repository root)
set -e
GOLDP=${GOLDP_BIN:-bin/goldp}
/usr/bin/python3 notebooks/tools/gen.py "$@"
if [ $# -eq 0 ]; then set -- $(cd notebooks/tools/src && ls *.nb | sed 's/\.nb$//'); fi
for n in "$@"; do
	start=$(date +%s)
	"$GOLDP" nb run -q --inplace "notebooks/$n.ipynb"
	echo "notebooks/$n.ipynb executed in $(( $(date +%s) - start )) s"
done
