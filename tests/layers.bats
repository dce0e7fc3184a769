#!/usr/bin/env bats
# tools/layers (run by make lint) holds lib/ to its layers: includes name
# their folder and run down a stack or into base/, never up or across.

load helper

ROOT=$(cd "$BATS_TEST_DIRNAME/.." && pwd)

# plant FILE TEXT: a file of the scratch library.
plant() {
	mkdir -p "$BATS_TEST_TMPDIR/lib/${1%/*}"
	printf '%s\n' "$2" >"$BATS_TEST_TMPDIR/lib/$1"
}

@test "layers: the library keeps its layers" {
	run -0 "$ROOT/tools/layers" "$ROOT/lib"
	eq "$output" ""
}

@test "layers: down a stack, into base/ and from verify/ are allowed" {
	plant fp/a.c '#include "feat/tokenize.h"'
	plant index/b.c '#include "near/plan.h"'
	plant text/c.h '#include "base/errors.h"'
	plant verify/d.c '#include "index/index.h"'
	run -0 "$ROOT/tools/layers" "$BATS_TEST_TMPDIR/lib"
	eq "$output" ""
}

@test "layers: up a layer, across stacks or without a folder fail" {
	plant feat/a.c '#include "fp/fingerprint.h"'
	plant near/b.c '#include <stdio.h>
#include "text/record.h"'
	plant base/c.c '#include "near/plan.h"'
	plant index/d.h '#include "segment.h"'
	plant odd/e.c ''
	run -1 "$ROOT/tools/layers" "$BATS_TEST_TMPDIR/lib"
	eq "$output" "$BATS_TEST_TMPDIR/lib/base/c.c:1: base/ may not include near/plan.h (up a layer)
$BATS_TEST_TMPDIR/lib/feat/a.c:1: feat/ may not include fp/fingerprint.h (up a layer)
$BATS_TEST_TMPDIR/lib/index/d.h:1: include segment.h does not name its folder
$BATS_TEST_TMPDIR/lib/near/b.c:2: near/ may not include text/record.h (across stacks)
$BATS_TEST_TMPDIR/lib/odd/e.c: not in a layer"
}

@test "layers: modules that include each other in a circle fail" {
	plant feat/a.c '#include "feat/b.h"'
	plant feat/b.c '#include "feat/a.h"'
	plant feat/c.c '#include "feat/a.h"'
	run -1 "$ROOT/tools/layers" "$BATS_TEST_TMPDIR/lib"
	eq "$output" "circle of includes:
	feat/a
	feat/b"
}
