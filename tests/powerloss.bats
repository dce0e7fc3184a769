#!/usr/bin/env bats
# Power cuts under sh-index writers (tests/torture/README): 120 trials of
# make torture's thousand, none may lose or damage the index, nor, on an
# index that keeps its documents' places, change a night's answers.

load helper

@test "power cut at a random call of build, add, merges, deletes, of indexes with locations too: the index after is the old or the new, whole, and answers as it" {
	local b
	for b in sh-index sh-near; do
		if LC_ALL=C grep -aq -e __asan_init -e __ubsan_handle \
		    "$(command -v "$b")"; then
			skip "sanitizer build: the shim needs a plain build"
		fi
	done
	command -v cc >/dev/null || skip "no cc to build the shim"
	run -0 env BIN="$(dirname "$(command -v sh-index)")" \
	    "$BATS_TEST_DIRNAME/torture/powerloss" 120
	[[ $output == *"lost or corrupt 0"* ]]
	[[ $output == *"powerloss: 0 problem(s)"* ]]
	# Every kind of writer was cut, and some cuts left each state.
	[[ $output =~ old\ [1-9][0-9]*,\ new\ [1-9] ]]
	# Indexes with locations were cut and asked the night after.
	[[ $output =~ after\ the\ cut\ [1-9] ]]
}
