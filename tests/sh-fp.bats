#!/usr/bin/env bats
# sh-fp: documents (or token lists, -t) in, "HEX<TAB>ID" out.

load helper

# The default features of fingerprint version 1, for tests of other rules.
V1='-n 2 -w 1 -W tf'

USAGE=$'usage: sh-fp [-12ABceFGHltXz] [-C charset] [-D idf] [-d dict] [-f format]\n             [-I idfield] [-j threads] [-L min] [-M types] [-n ngram]\n             [-P shard/shards] [-s stopwords] [-T textfield] [-U file]\n             [-W weight] [-w shingle] [-y types] [file ...]\n       sh-fp -h | -V'

# --- usage and option values ---------------------------------------------

@test "-c: the feature count column; -m: short documents counted" {
	printf 'a\tone two three two\nb\tone\nc\t国语国\nd\t,\n' >"$BATS_TEST_TMPDIR/d.tsv"
	run -0 --separate-stderr sh-fp $V1 -c -L 3 "$BATS_TEST_TMPDIR/d.tsv"
	eq "$(cut -f 2- <<<"$output")" "$(printf 'a\t4\nb\t1\nc\t2')"
	eq "${stderr_lines[1]}" "sh-fp: 2 of 3 document(s) with fewer than 3 features: short, see sh-fp(1)"
	# The count of a token list is its tokens; the default flags nothing.
	run -0 --separate-stderr sh-fp -t -c <<<$'x\ta^2 b c^0.5'
	eq "$(cut -f 2- <<<"$output")" "$(printf 'x\t3')"
	eq "$stderr" ""
	run -2 --separate-stderr sh-fp -L -1 /dev/null
	eq "$stderr" "sh-fp: -L -1: number out of range"
}

@test "-V: the toolkit and fingerprint versions" {
	run -0 --separate-stderr sh-fp -V
	eq "$output" "sh-fp (sh) 0.12.0, fingerprint version 3, sketch version 1"
	eq "$stderr" ""
}

@test "unknown option: usage on stderr, exit 2" {
	run -2 --separate-stderr sh-fp -Q </dev/null
	eq "$output" ""
	eq "$(printf '%s\n' "${stderr_lines[@]: -5}")" "$USAGE"
	[ "${#stderr_lines[@]}" -eq 6 ]
}

@test "-t with -l or -F, two framings: both named, exit 2" {
	run -2 --separate-stderr sh-fp -t -l </dev/null
	eq "$output" ""
	eq "$stderr" "sh-fp: -t and -l cannot be used together"
	run -2 --separate-stderr sh-fp -Ft </dev/null
	eq "$output" ""
	eq "$stderr" "sh-fp: -t and -F cannot be used together"
	run -2 --separate-stderr sh-fp -t -f jsonl </dev/null
	eq "$stderr" "sh-fp: -t and -f cannot be used together"
	run -0 --separate-stderr sh-fp -t -f tab </dev/null
	run -2 --separate-stderr sh-fp -l -F </dev/null
	eq "$output" ""
	eq "$stderr" "sh-fp: -l and -F cannot be used together"
	run -2 --separate-stderr sh-fp -f warc -l </dev/null
	eq "$stderr" "sh-fp: -f and -l cannot be used together"
	printf 'a\tone\n' >"$BATS_TEST_TMPDIR/j"
	run -0 --separate-stderr sh-fp -f jsonl -f tab "$BATS_TEST_TMPDIR/j"
	eq "$output" "$(printf '363b02a42408a1f6\ta')"
}

@test "bad -n, -w and -W values" {
	run -2 --separate-stderr sh-fp -n 0 </dev/null
	eq "$output" ""
	eq "$stderr" "sh-fp: -n 0: number out of range"
	run -2 --separate-stderr sh-fp -n 17 </dev/null
	eq "$stderr" "sh-fp: -n 17: number out of range"
	run -2 --separate-stderr sh-fp -w x </dev/null
	eq "$stderr" "sh-fp: -w x: invalid value"
	run -2 --separate-stderr sh-fp -W foo </dev/null
	eq "$stderr" "sh-fp: -W foo: invalid value"
}

# --- frozen fingerprints -------------------------------------------------

@test "frozen fingerprints of the test vectors" {
	run -0 --separate-stderr sh-fp "$FIXTURES/vectors.in"
	eq "$stderr" "sh-fp: skipped 2 document(s) without features"
	sh-fp "$FIXTURES/vectors.in" >"$BATS_TEST_TMPDIR/out" 2>/dev/null
	same_files "$FIXTURES/vectors.out" "$BATS_TEST_TMPDIR/out"
}

@test "frozen fingerprints of the test vectors: -2 and -1, versions 2 and 1, wherever they stand, the options given kept" {
	sh-fp -2 "$FIXTURES/vectors.in" >"$BATS_TEST_TMPDIR/out" 2>/dev/null
	same_files "$FIXTURES/vectors-v2.out" "$BATS_TEST_TMPDIR/out"
	sh-fp -n 5 "$FIXTURES/vectors.in" >"$BATS_TEST_TMPDIR/out" 2>/dev/null
	same_files "$FIXTURES/vectors-v2.out" "$BATS_TEST_TMPDIR/out"
	sh-fp -1 "$FIXTURES/vectors.in" >"$BATS_TEST_TMPDIR/out" 2>/dev/null
	same_files "$FIXTURES/vectors-v1.out" "$BATS_TEST_TMPDIR/out"
	# The options given win over the version's, before it or after.
	sh-fp -W logtf -1 "$FIXTURES/vectors.in" >"$BATS_TEST_TMPDIR/out" \
	    2>/dev/null
	same_files "$FIXTURES/vectors-logtf.out" "$BATS_TEST_TMPDIR/out"
	sh-fp -1 -n 3 -w 2 "$FIXTURES/vectors.in" >"$BATS_TEST_TMPDIR/out" \
	    2>/dev/null
	same_files "$FIXTURES/vectors-n3-w2.out" "$BATS_TEST_TMPDIR/out"
	# The last version counts.
	sh-fp -1 -2 "$FIXTURES/vectors.in" >"$BATS_TEST_TMPDIR/out" 2>/dev/null
	same_files "$FIXTURES/vectors-v2.out" "$BATS_TEST_TMPDIR/out"
	sh-fp -2 -n 5x "$FIXTURES/vectors.in" >"$BATS_TEST_TMPDIR/out" \
	    2>/dev/null
	same_files "$FIXTURES/vectors.out" "$BATS_TEST_TMPDIR/out"
}

@test "frozen fingerprints of the test vectors: -n 2 -w 1 -W tf" {
	sh-fp -n 2 -w 1 -W tf "$FIXTURES/vectors.in" >"$BATS_TEST_TMPDIR/out" \
	    2>/dev/null
	same_files "$FIXTURES/vectors-v1.out" "$BATS_TEST_TMPDIR/out"
}

@test "frozen fingerprints of the test vectors: -n 2 -w 1 -W logtf" {
	sh-fp -n 2 -w 1 -W logtf "$FIXTURES/vectors.in" \
	    >"$BATS_TEST_TMPDIR/out" 2>/dev/null
	same_files "$FIXTURES/vectors-logtf.out" "$BATS_TEST_TMPDIR/out"
}

@test "frozen fingerprints of the test vectors: -n 2 -w 1 -W binary" {
	sh-fp -n 2 -w 1 -W binary "$FIXTURES/vectors.in" \
	    >"$BATS_TEST_TMPDIR/out" 2>/dev/null
	same_files "$FIXTURES/vectors-binary.out" "$BATS_TEST_TMPDIR/out"
}

@test "frozen fingerprints of the test vectors: -n 3 -w 2 -W tf" {
	sh-fp -n 3 -w 2 -W tf "$FIXTURES/vectors.in" >"$BATS_TEST_TMPDIR/out" \
	    2>/dev/null
	same_files "$FIXTURES/vectors-n3-w2.out" "$BATS_TEST_TMPDIR/out"
}

@test "the locale changes nothing" {
	LC_ALL=C sh-fp "$FIXTURES/vectors.in" >"$BATS_TEST_TMPDIR/c" 2>/dev/null
	LC_ALL=C.UTF-8 sh-fp "$FIXTURES/vectors.in" >"$BATS_TEST_TMPDIR/u" \
	    2>/dev/null
	same_files "$FIXTURES/vectors.out" "$BATS_TEST_TMPDIR/c"
	same_files "$FIXTURES/vectors.out" "$BATS_TEST_TMPDIR/u"
}

# --- default features ----------------------------------------------------

@test "no feature options: -n 5x -w 3 -W binary, each of them in effect" {
	cd "$BATS_TEST_TMPDIR"
	printf '%s\n' 'en	The cat sat on the mat. The cat sat on the hat.' \
	    'zh	我们今天很高兴，我们今天很高兴。北京的长城很长' \
	    'mixed	近似重复检测 finds near copies 近似重复检测 finds near pages' \
	    >mixed
	sh-fp mixed >default
	sh-fp -n 5x -w 3 -W binary mixed >explicit
	[ "$(wc -l <default)" -eq 3 ]
	same_files explicit default
	for o in "-n 5" "-n 2x" "-w 1" "-W tf" "-2"; do
		sh-fp $o mixed >other
		run -1 cmp -s default other
	done
}

@test "no feature options: each distinct 3-shingle and 5-gram weighs 1" {
	cd "$BATS_TEST_TMPDIR"
	# Shingles run on across punctuation.  "the cat sat" comes twice, and
	# so do 2 of the 8 5-grams of the CJK run of 12 characters.
	printf 'x\tThe cat sat on the mat; the cat sat. 中文分词技术中文分词技术\n' >doc
	w='cat_sat_on sat_on_the on_the_mat the_mat_the mat_the_cat'
	g='分词技术中 词技术中文 技术中文分 术中文分词'
	printf 'x\tthe_cat_sat %s 中文分词技 文分词技术 %s\n' "$w" "$g" >binary.tok
	printf 'x\tthe_cat_sat^2 %s 中文分词技^2 文分词技术^2 %s\n' "$w" "$g" >tf.tok
	run -0 --separate-stderr sh-fp doc
	eq "$output" "$(sh-fp -t binary.tok)"
	eq "$stderr" ""
	binary=$output
	run -0 --separate-stderr sh-fp -W tf doc
	eq "$output" "$(sh-fp -t tf.tok)"
	[ "$output" != "$binary" ]
}

@test "a one-token document's fingerprint is the XXH64 of the token" {
	# XXH64 with seed 0 of "abc", "a", "中文" and of a token over 32 bytes.
	run -0 --separate-stderr sh -c 'printf "1\tabc\n2\ta\n3\t中文\n4\tnobodyinspectsthespammishrepetition\n" | sh-fp'
	eq "$output" $'44bc2cf5ad770999\t1\nd24ec4f1a98c6e5b\t2\na75c8d077a3f4f51\t3\nc08f97ce868939ea\t4'
	eq "$stderr" ""
}

@test "XXH64 of the token after folding, whatever its count" {
	run -0 --separate-stderr sh -c \
	    'printf "1\tABC\n2\tＡｂｃ, abc; aBc\n3\t\"abc\"\n" | sh-fp "$@" -W logtf' \
	    sh $V1
	eq "$output" $'44bc2cf5ad770999\t1\n44bc2cf5ad770999\t2\n44bc2cf5ad770999\t3'
}

@test "-t: a one-token list gives the XXH64 of the token, whatever its weight" {
	run -0 --separate-stderr sh -c \
	    'printf "1\tabc\n2\tabc^5\n3\tabc^0.5\n4\tabc abc\n" | sh-fp -t'
	eq "$output" $'44bc2cf5ad770999\t1\n44bc2cf5ad770999\t2\n44bc2cf5ad770999\t3\n44bc2cf5ad770999\t4'
	eq "$stderr" ""
}

# --- traditional and simplified Chinese (-z) -----------------------------

@test "-z: a zh_CN and a zh_TW man page, 21 apart, come within 3" {
	run -0 --separate-stderr sh-fp $V1 "$FIXTURES/zdump-zh.tsv"
	eq "$output" $'af18789ce5a26f65\tzh_CN/man8/zdump.8\naa10ba3ec421ce39\tzh_TW/man8/zdump.8'
	run -1 sh-dist -k 3 af18789ce5a26f65 aa10ba3ec421ce39
	eq "$output" 21
	run -0 --separate-stderr sh-fp $V1 -z "$FIXTURES/zdump-zh.tsv"
	eq "$output" $'af18789ce5a26f65\tzh_CN/man8/zdump.8\naf10389ce5a26f65\tzh_TW/man8/zdump.8'
	eq "$stderr" ""
	run -0 sh-dist -k 3 af18789ce5a26f65 af10389ce5a26f65
	eq "$output" 2
}

@test "-z: text without traditional characters keeps its fingerprints" {
	sh-fp "$FIXTURES/sample.tsv" >"$BATS_TEST_TMPDIR/plain" 2>/dev/null
	sh-fp -z "$FIXTURES/sample.tsv" >"$BATS_TEST_TMPDIR/z" 2>/dev/null
	[ -s "$BATS_TEST_TMPDIR/plain" ]
	same_files "$BATS_TEST_TMPDIR/plain" "$BATS_TEST_TMPDIR/z"
	run -0 sh -c 'printf "s\t国语说后来\nt\t國語說後來\n" | sh-fp -z | cut -f 1 | uniq | wc -l'
	eq "$output" 1
}

# --- token lists (-t) ----------------------------------------------------

@test "-t: a^2 weighs as a a and as a^2.0" {
	run -0 --separate-stderr sh -c 'printf "1\ta^2 b\n2\ta a b\n3\ta^2.0 b\n4\tb a^2.000\n5\ta b\n" |
	    sh-fp -t'
	eq "$output" $'d24ec4f1a98c6e5b\t1\nd24ec4f1a98c6e5b\t2\nd24ec4f1a98c6e5b\t3\nd24ec4f1a98c6e5b\t4\n504400a108800e1b\t5'
}

@test "-t: a token without weight weighs 1" {
	run -0 --separate-stderr sh -c 'printf "1\ta b c\n2\ta^1 b^1.0 c^1.000\n" |
	    sh-fp -t'
	eq "${lines[0]%%$'\t'*}" "${lines[1]%%$'\t'*}"
	eq "${#lines[@]}" 2
}

@test "-t: weights beyond three decimals round half up" {
	# a weighs a hair more than b in 1, 2 and 4: those bits go to a.
	run -0 --separate-stderr sh -c 'printf "1\ta^1.0005 b\n2\ta^1.001 b\n3\ta^1.00049999 b\n4\ta^1.9995 b^1.999\n5\ta b\n" |
	    sh-fp -t'
	eq "$output" $'d24ec4f1a98c6e5b\t1\nd24ec4f1a98c6e5b\t2\n504400a108800e1b\t3\nd24ec4f1a98c6e5b\t4\n504400a108800e1b\t5'
}

@test "-t: the weight follows the last ^" {
	run -0 --separate-stderr sh -c \
	    'printf "1\ta^b^2\n2\ta^b^1 a^b^1\n3\ta^b^1 c\n4\ta c\n" | sh-fp -t'
	eq "${lines[0]%%$'\t'*}" "${lines[1]%%$'\t'*}"
	[ "${lines[2]%%$'\t'*}" != "${lines[3]%%$'\t'*}" ]
	eq "$stderr" ""
}

@test "-t: spaces and TABs separate tokens, order does not matter" {
	run -0 --separate-stderr sh -c 'printf "1\ta b c^2\n2\tc^2 a b\n3\t  b\tc c\t\t a  \n4\tc b a c\n" |
	    sh-fp -t'
	eq "$output" $'a24ac040800657c9\t1\na24ac040800657c9\t2\na24ac040800657c9\t3\na24ac040800657c9\t4'
}

@test "-t: bad weights name the byte column of the token in the line" {
	run -2 --separate-stderr sh -c 'printf "doc\tfoo bar^x\nd\té^-1\nok\tabc\nd\ta^1.2.3\nd\ta^\nd\ta b^2e3\n" |
	    sh-fp -t'
	eq "$output" $'44bc2cf5ad770999\tok'
	eq "$stderr" 'sh-fp: <stdin>:1: column 9: bad token weight
sh-fp: <stdin>:2: column 3: bad token weight
sh-fp: <stdin>:4: column 3: bad token weight
sh-fp: <stdin>:5: column 3: bad token weight
sh-fp: <stdin>:6: column 5: bad token weight'
}

@test "-t: empty token" {
	cd "$BATS_TEST_TMPDIR"
	printf 'a\tabc\nb\tx  ^2 y\n' >toks
	run -2 --separate-stderr sh-fp -t toks
	eq "$output" $'44bc2cf5ad770999\ta'
	eq "$stderr" "sh-fp: toks:2: column 6: empty token"
}

@test "-t: one CR before the newline is dropped" {
	run -0 --separate-stderr sh -c 'printf "1\tabc^2\r\n" | sh-fp -t'
	eq "$output" $'44bc2cf5ad770999\t1'
	run -2 --separate-stderr sh -c 'printf "1\tabc^2\r\r\n" | sh-fp -t'
	eq "$output" ""
	eq "$stderr" "sh-fp: <stdin>:1: column 3: bad token weight"
}

@test "-t: a line without TAB is reported and skipped" {
	run -2 --separate-stderr sh -c 'printf "abc\n2\tabc\n" | sh-fp -t'
	eq "$output" $'44bc2cf5ad770999\t2'
	eq "$stderr" "sh-fp: <stdin>:1: missing TAB after ID"
}

@test "-t: an empty token list has no features" {
	run -0 --separate-stderr sh -c 'printf "1\t\n2\t \t\n3\tabc\n" | sh-fp -t'
	eq "$output" $'44bc2cf5ad770999\t3'
	eq "$stderr" "sh-fp: skipped 2 document(s) without features"
}

# --- sh-tokenize | sh-fp -t is sh-fp -------------------------------------

@test "sh-tokenize | sh-fp -t = sh-fp: test vectors, -W tf" {
	for nw in "1 1" "2 1" "3 1" "16 1" "2 2" "2 3" "1 16" "3 2" "16 16"; do
		set -- $nw
		fp_via_tokens -W tf -n "$1" -w "$2" "$FIXTURES/vectors.in"
	done
}

@test "sh-tokenize | sh-fp -t = sh-fp: test vectors, -W logtf" {
	for nw in "1 1" "2 1" "3 1" "16 1" "2 2" "2 3" "1 16" "3 2" "16 16"; do
		set -- $nw
		fp_via_tokens -W logtf -n "$1" -w "$2" "$FIXTURES/vectors.in"
	done
}

@test "sh-tokenize | sh-fp -t = sh-fp: test vectors, -W binary" {
	for nw in "1 1" "2 1" "3 1" "16 1" "2 2" "2 3" "1 16" "3 2" "16 16"; do
		set -- $nw
		fp_via_tokens -W binary -n "$1" -w "$2" "$FIXTURES/vectors.in"
	done
}

@test "sh-tokenize | sh-fp -t = sh-fp: one language at a time" {
	cd "$BATS_TEST_TMPDIR"
	for lang in en zh mixed ja ko; do
		grep "^$lang" "$FIXTURES/vectors.in" >"$lang"
		fp_via_tokens "$lang"
		fp_via_tokens -W logtf -n 3 "$lang"
		fp_via_tokens -W binary -w 2 "$lang"
		fp_via_tokens -z "$lang"
	done
}

@test "sh-tokenize | sh-fp -t = sh-fp: generated corpus" {
	gen_corpus "$BATS_TEST_TMPDIR/corpus"
	for o in "-W tf -n 2 -w 1" "-W logtf -n 2 -w 1" "-W binary -n 2 -w 1" \
	    "-W tf -n 1 -w 2" "-W logtf -n 3 -w 3" "-W binary -n 4 -w 2"; do
		fp_via_tokens $o "$BATS_TEST_TMPDIR/corpus"
	done
}

@test "sh-tokenize | sh-fp -t = sh-fp: -l and -F over several files" {
	cd "$BATS_TEST_TMPDIR"
	gen_corpus corpus 200
	printf 'one two\n\n中文分词 and more\n' >small
	fp_via_tokens -l corpus small
	fp_via_tokens -W logtf -w 2 -l small corpus
	fp_via_tokens -F corpus small "$FIXTURES/vectors.in"
	fp_via_tokens -W binary -n 3 -F corpus small
}

@test "sh-tokenize | sh-fp -t = sh-fp: NUL, CRLF, invalid UTF-8" {
	printf 'a\tfoo\000bar foo\r\nb\tx\377y x\303\nc\tcaf\303\251\000\346\226\207\n' \
	    >"$BATS_TEST_TMPDIR/odd"
	fp_via_tokens "$BATS_TEST_TMPDIR/odd"
	fp_via_tokens -W logtf -w 2 "$BATS_TEST_TMPDIR/odd"
}

@test "sh-tokenize | sh-fp -t = sh-fp: stop words and IDF weights" {
	local d="$BATS_TEST_TMPDIR"

	gen_corpus "$d/corpus" 1000
	sh-tokenize -c "$d/corpus" >"$d/df"
	sh-tokenize -c -n 1 -w 2 -s @en "$d/corpus" >"$d/df12"
	printf '我们 3.39131796699\n北京 4.66740230872\nthe 0.5\nfox 12\n' \
	    >"$d/jieba"
	for o in "-s @en" "-s @en -s @zh -n 1" "-s @zh -W logtf -w 2" \
	    "-D $d/df" "-D $d/df -W logtf" "-D $d/df -W binary" \
	    "-D $d/df12 -n 1 -w 2 -s @en" "-D $d/jieba" "-D $d/jieba -W logtf"; do
		fp_via_tokens $o "$d/corpus"
	done
}

@test "-s and -D change fingerprints; without them nothing changes" {
	printf '\t3\nthe\t3\n' >"$BATS_TEST_TMPDIR/df"
	printf 'a\tthe cat the dog\n' >"$BATS_TEST_TMPDIR/in"
	run -0 sh-fp $V1 "$BATS_TEST_TMPDIR/in"
	plain=$output
	run -0 sh-fp $V1 -s @en "$BATS_TEST_TMPDIR/in"
	[ "$output" != "$plain" ]
	run -0 sh -c 'printf "a\tcat dog\n" | sh-fp "$@"' sh $V1
	[ -n "$output" ]
	eq "$output" "$(sh-fp $V1 -s @en "$BATS_TEST_TMPDIR/in")"
	run -0 sh-fp $V1 -D "$BATS_TEST_TMPDIR/df" "$BATS_TEST_TMPDIR/in"
	[ "$output" != "$plain" ]
}

@test "-s and -D errors name the file and line, exit 2" {
	printf '\t1\nb\t2\n' >"$BATS_TEST_TMPDIR/df"
	run -2 --separate-stderr sh-fp -D "$BATS_TEST_TMPDIR/df" </dev/null
	eq "$output" ""
	eq "$stderr" "sh-fp: $BATS_TEST_TMPDIR/df:2: document frequency above the document count"
	run -2 --separate-stderr sh-fp -s "$BATS_TEST_TMPDIR/nope" </dev/null
	eq "$stderr" "sh-fp: $BATS_TEST_TMPDIR/nope: No such file or directory"
	run -2 --separate-stderr sh-fp -s @xx </dev/null
	eq "$stderr" "sh-fp: -s @xx: invalid value"
}

@test "sh-tokenize | sh-fp -t = sh-fp: -d" {
	gen_corpus "$BATS_TEST_TMPDIR/corpus"
	small_dict "$BATS_TEST_TMPDIR/dict"
	printf '天气 9\n北京 8\n今天 7\n分词 5\n我们 6\n长城 4\n' \
	    >>"$BATS_TEST_TMPDIR/dict"
	fp_via_tokens -d "$BATS_TEST_TMPDIR/dict" "$BATS_TEST_TMPDIR/corpus"
	fp_via_tokens -d "$BATS_TEST_TMPDIR/dict" -W logtf -w 2 \
	    "$BATS_TEST_TMPDIR/corpus"
}

# --- dictionary (-d) -----------------------------------------------------

@test "-d: the features are the dictionary words" {
	small_dict "$BATS_TEST_TMPDIR/dict"
	run -0 --separate-stderr sh -c 'printf "1\t中国人民\n2\tabc\n" |
	    sh-fp "$@" -d "$0"; printf "1\t中国 人民\n2\tabc\n" | sh-fp -t' \
	    "$BATS_TEST_TMPDIR/dict" $V1
	eq "${lines[0]}" "${lines[2]}"
	eq "${lines[1]}" $'44bc2cf5ad770999\t2'
	eq "${lines[3]}" $'44bc2cf5ad770999\t2'
	# Without -d: the bigrams, another fingerprint.
	words=${lines[0]}
	run -0 sh -c 'printf "1\t中国人民\n" | sh-fp "$@"' sh $V1
	[ "$output" != "$words" ]
}

@test "-d: errors in the dictionary, exit 2" {
	cd "$BATS_TEST_TMPDIR"
	printf '中国 3\n人民 3x\n' >bad
	run -2 --separate-stderr sh-fp -d bad </dev/null
	eq "$output" ""
	eq "$stderr" "sh-fp: bad:2: malformed dictionary line"
	run -2 --separate-stderr sh-fp -d nosuch </dev/null
	eq "$stderr" "sh-fp: nosuch: No such file or directory"
}

# --- input framing -------------------------------------------------------

@test "-l: every line is a document numbered from 1" {
	cd "$BATS_TEST_TMPDIR"
	printf 'abc\n\na\n' >a
	run -0 --separate-stderr sh-fp -l a
	eq "$output" $'44bc2cf5ad770999\t1\nd24ec4f1a98c6e5b\t3'
	eq "$stderr" "sh-fp: skipped 1 document(s) without features"
}

@test "-l with several files: IDs are FILE:N" {
	cd "$BATS_TEST_TMPDIR"
	printf 'abc\na\n' >a
	printf 'a' >b
	run -0 --separate-stderr sh-fp -l a b
	eq "$output" $'44bc2cf5ad770999\ta:1\nd24ec4f1a98c6e5b\ta:2\nd24ec4f1a98c6e5b\tb:1'
	eq "$stderr" ""
}

@test "-F: every file is one document named by its path" {
	cd "$BATS_TEST_TMPDIR"
	printf 'abc\n\nABC\tabc\n' >a
	printf '  a  ' >b
	: >empty
	run -0 --separate-stderr sh-fp $V1 -F a empty b
	eq "$output" $'44bc2cf5ad770999\ta\nd24ec4f1a98c6e5b\tb'
	eq "$stderr" "sh-fp: skipped 1 document(s) without features"
}

@test "-F: stdin is the document -" {
	run -0 --separate-stderr sh -c 'printf "abc\n" | sh-fp -F'
	eq "$output" $'44bc2cf5ad770999\t-'
	run -0 --separate-stderr sh -c 'printf "a\n" | sh-fp -F -'
	eq "$output" $'d24ec4f1a98c6e5b\t-'
}

@test "-F and ID<TAB>TEXT give a text the same fingerprint" {
	cd "$BATS_TEST_TMPDIR"
	printf 'The quick brown fox\njumps over the lazy dog.' >fox
	run -0 --separate-stderr sh -c 'printf "x\tThe quick brown fox jumps over the lazy dog.\n" |
	    sh-fp "$@"' sh $V1
	eq "$output" $'593b03225397e4ae\tx'
	run -0 --separate-stderr sh-fp $V1 -F fox
	eq "$output" $'593b03225397e4ae\tfox'
}

@test "-F: a file read by its size and a stream read in steps give the same document" {
	cd "$BATS_TEST_TMPDIR"
	# 1, 4095, 4096, 4097 and 300,000 bytes: the edges of the buffer a
	# file's size asks for, and a file read in many steps.
	for n in 1 4095 4096 4097 300000; do
		awk -v n="$n" 'BEGIN { while (length(s) < n) s = s "w" length(s) " "; printf "%s", substr(s, 1, n) }' >"f$n"
		[ "$(wc -c <"f$n")" -eq "$n" ]
		a=$(sh-fp -c -F "f$n" | cut -f 1,3)
		b=$(cat "f$n" | sh-fp -c -F | cut -f 1,3)
		eq "$a" "$b"
		# The count is that of the whole text.
		eq "${a#*	}" "$(printf 'x\t%s\n' "$(cat "f$n")" | sh-fp -c | cut -f 3)"
	done
}

@test "- reads stdin between files" {
	cd "$BATS_TEST_TMPDIR"
	printf 'f\tabc\n' >f
	run -0 --separate-stderr sh -c 'printf "s\ta\n" | sh-fp f - f'
	eq "$output" $'44bc2cf5ad770999\tf\nd24ec4f1a98c6e5b\ts\n44bc2cf5ad770999\tf'
}

@test "empty input: no output, exit 0" {
	run -0 --separate-stderr sh-fp </dev/null
	eq "$output" ""
	eq "$stderr" ""
	run -0 --separate-stderr sh-fp -t /dev/null
	eq "$output" ""
	eq "$stderr" ""
}

@test "-F: an empty file is a document without features" {
	run -0 --separate-stderr sh-fp -F </dev/null
	eq "$output" ""
	eq "$stderr" "sh-fp: skipped 1 document(s) without features"
}

@test "a last line without newline counts" {
	run -0 --separate-stderr sh -c 'printf "1\tabc\n2\ta" | sh-fp'
	eq "$output" $'44bc2cf5ad770999\t1\nd24ec4f1a98c6e5b\t2'
}

@test "CRLF lines read like LF lines" {
	run -0 --separate-stderr sh -c 'printf "x\tThe quick brown fox jumps over the lazy dog.\r\n" |
	    sh-fp "$@"' sh $V1
	eq "$output" $'593b03225397e4ae\tx'
}

@test "-U: the IDs of the documents with invalid UTF-8, a line each, in a file" {
	printf '1\tabc\377abc\n2\tok\n3\tx\300\200y\n' >"$BATS_TEST_TMPDIR/in"
	run -0 --separate-stderr sh-fp -C UTF-8 -U "$BATS_TEST_TMPDIR/bad" "$BATS_TEST_TMPDIR/in"
	eq "$(cut -f 2 <<<"$output")" "$(printf '1\n2\n3')"
	eq "$stderr" 'sh-fp: 2 document(s) with invalid UTF-8, the first "1" (-C names a charset)'
	eq "$(cat "$BATS_TEST_TMPDIR/bad")" "$(printf '1\n3')"
	run -0 sh-tokenize -C UTF-8 -U "$BATS_TEST_TMPDIR/bad2" "$BATS_TEST_TMPDIR/in"
	cmp "$BATS_TEST_TMPDIR/bad" "$BATS_TEST_TMPDIR/bad2"
	run -2 --separate-stderr sh-fp -U /nonexistent/dir/bad "$BATS_TEST_TMPDIR/in"
	eq "$stderr" "sh-fp: /nonexistent/dir/bad: No such file or directory"
	run -2 --separate-stderr sh-fp -C UTF-8 -U /dev/full "$BATS_TEST_TMPDIR/in"
	eq "${stderr_lines[-1]}" "sh-fp: /dev/full: No space left on device"
}

@test "an embedded NUL separates words" {
	run -0 --separate-stderr sh -c \
	    'printf "1\tabc\000abc\n2\ta\000b\n" | sh-fp "$@"' sh $V1
	eq "$output" $'44bc2cf5ad770999\t1\n504400a108800e1b\t2'
	eq "$stderr" ""
}

@test "documents without features are skipped and counted" {
	run -0 --separate-stderr sh -c 'printf "1\t\n2\t... !!!\n3\tabc\n4\t-- --\n" | sh-fp'
	eq "$output" $'44bc2cf5ad770999\t3'
	eq "$stderr" "sh-fp: skipped 3 document(s) without features"
}

@test "invalid UTF-8 (-C UTF-8: no charset guessed): bytes separate words, one summary line" {
	run -0 --separate-stderr sh -c \
	    'printf "1\tabc\377abc\n2\ta\300\200b\n3\t\377\376\n4\ta b\n" | sh-fp -C UTF-8 "$@"' \
	    sh $V1
	eq "$output" $'44bc2cf5ad770999\t1\n504400a108800e1b\t2\n504400a108800e1b\t4'
	eq "$stderr" 'sh-fp: 3 document(s) with invalid UTF-8, the first "1" (-C names a charset; -U lists them)
sh-fp: skipped 1 document(s) without features'
}

@test "a line without TAB is reported and skipped" {
	cd "$BATS_TEST_TMPDIR"
	printf '1\tabc\nno tab here\n3\ta\n' >f
	run -2 --separate-stderr sh-fp f
	eq "$output" $'44bc2cf5ad770999\t1\nd24ec4f1a98c6e5b\t3'
	eq "$stderr" "sh-fp: f:2: missing TAB after ID"
	run -2 --separate-stderr sh -c 'printf "\n1\tabc\n" | sh-fp'
	eq "$output" $'44bc2cf5ad770999\t1'
	eq "$stderr" "sh-fp: <stdin>:1: missing TAB after ID"
}

@test "missing file: reported, other files processed, exit 2" {
	cd "$BATS_TEST_TMPDIR"
	printf '1\tabc\n' >f
	run -2 --separate-stderr sh-fp nosuch f
	eq "$output" $'44bc2cf5ad770999\t1'
	eq "$stderr" "sh-fp: nosuch: No such file or directory"
	printf 'abc\n' >g
	run -2 --separate-stderr sh-fp -F g nosuch
	eq "$output" $'44bc2cf5ad770999\tg'
	eq "$stderr" "sh-fp: nosuch: No such file or directory"
}

@test "unreadable file (a directory): reported, exit 2" {
	cd "$BATS_TEST_TMPDIR"
	mkdir dir
	printf '1\tabc\n' >f
	run -2 --separate-stderr sh-fp dir f
	eq "$output" $'44bc2cf5ad770999\t1'
	eq "$stderr" "sh-fp: dir: Is a directory"
}

# fail_read N FILE CMD...: run CMD with the Nth read(2) of FILE failing
# once with EIO (strace's fault injection), the reads after it going on.
# LeakSanitizer cannot run under ptrace: a sanitizer build leaves it out.
fail_read() {
	local n=$1 f=$2

	shift 2
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	    strace -o /dev/null -P "$f" -e trace=read \
	    -e inject=read:error=EIO:when="$n" "$@"
}

@test "a read that fails once, in a file or in -D, -d or -s: its error named, exit 2" {
	command -v strace >/dev/null || skip "no strace"
	strace -o /dev/null true 2>/dev/null || skip "strace cannot trace here"
	cd "$BATS_TEST_TMPDIR"
	D=$PWD
	# Each of them over 4096 bytes, so that a read fails after one did
	# not: the lines before it are read, not the error's errno.
	awk 'BEGIN { for (i = 1; i <= 800; i++)
		printf "d%d\tword%d alpha beta gamma\n", i, i }' >docs
	awk 'BEGIN { for (i = 1; i <= 800; i++) print "word" i, 1.5 }' >idf
	awk 'BEGIN { for (i = 1; i <= 800; i++) print "word" i, 100 }' >dict
	awk 'BEGIN { for (i = 1; i <= 800; i++) print "stop" i }' >stops
	# The read at the end of the file, after one that read it all (it
	# was "Success"), or one in the middle of it.
	for n in 2 3; do
		run -2 --separate-stderr fail_read "$n" "$D/docs" sh-fp "$D/docs"
		eq "$stderr" "sh-fp: $D/docs: Input/output error"
	done
	# The count of the lines ahead, after which the file was read from
	# its end ("no IDF entries"), and a line cut short by the failure
	# ("not a WORD IDF line", "malformed dictionary line").
	for n in 2 4; do
		run -2 --separate-stderr fail_read "$n" "$D/idf" sh-fp -D "$D/idf" docs
		eq "$stderr" "sh-fp: $D/idf: Input/output error"
		eq "$output" ""
	done
	for n in 2 3; do
		run -2 --separate-stderr fail_read "$n" "$D/dict" sh-fp -d "$D/dict" docs
		eq "$stderr" "sh-fp: $D/dict: Input/output error"
		run -2 --separate-stderr fail_read "$n" "$D/stops" sh-fp -s "$D/stops" docs
		eq "$stderr" "sh-fp: $D/stops: Input/output error"
	done
}

# --- size, pipes, write errors, determinism ------------------------------

@test "a 100 MiB line" {
	# 6553600 times "lorem ipsum dol ": the fingerprint of one repetition.
	run -0 --separate-stderr sh -c '{ printf "big\t"; yes "lorem ipsum dol" |
	    head -c 104857600 | tr "\n" " "; } | sh-fp "$@"' sh $V1
	eq "$output" $'4e777b2bebefc648\tbig'
	eq "$stderr" ""
	run -0 --separate-stderr sh -c 'printf "one\tlorem ipsum dol\n" | sh-fp "$@"' \
	    sh $V1
	eq "$output" $'4e777b2bebefc648\tone'
}

@test "sh-fp big | head -1 stops quietly" {
	cd "$BATS_TEST_TMPDIR"
	gen_corpus big 20000
	first=$(head -n 1 big | sh-fp)
	run -0 --separate-stderr sh -c 'sh-fp big | head -n 1'
	eq "$output" "$first"
	eq "$stderr" ""
}

@test "write error on stdout: exit 2" {
	run -2 --separate-stderr sh -c 'printf "1\tabc\n" | sh-fp >/dev/full'
	eq "$stderr" "sh-fp: stdout: No space left on device"
	gen_corpus "$BATS_TEST_TMPDIR/corpus"
	run -2 --separate-stderr sh -c 'sh-fp "$1" >/dev/full' sh \
	    "$BATS_TEST_TMPDIR/corpus"
	eq "$stderr" "sh-fp: stdout: No space left on device"
}

@test "same input, same bytes" {
	cd "$BATS_TEST_TMPDIR"
	gen_corpus corpus
	for w in tf logtf binary; do
		sh-fp -W "$w" corpus >1 2>/dev/null
		sh-fp -W "$w" corpus >2 2>/dev/null
		[ -s 1 ]
		same_files 1 2
	done
}

@test "SH_VECTOR: every code path gives the same bytes; a bad value is exit 2" {
	local v
	cd "$BATS_TEST_TMPDIR"
	gen_corpus corpus
	sh-fp corpus >best 2>/dev/null
	[ -s best ]
	for v in 0 1 2; do
		SH_VECTOR=$v sh-fp corpus >out 2>/dev/null
		same_files best out
		SH_VECTOR=$v sh-fp -w 2 -n 2 -z corpus >"w2.$v" 2>/dev/null
	done
	same_files w2.0 w2.1
	same_files w2.0 w2.2
	SH_VECTOR=3 run -2 sh-fp corpus
	[ "$output" = "sh-fp: SH_VECTOR=3: not 0, 1 or 2" ]
}

@test "-j: the same bytes out and the same diagnostics on any number of threads" {
	local j
	# More than a batch of three threads (768 documents), with a bad
	# token list, empty and short documents and invalid UTF-8 among them.
	awk 'BEGIN {
		for (i = 1; i <= 2000; i++) {
			if (i % 500 == 7)
				printf "e%d\t\n", i
			else if (i % 300 == 11)
				printf "u%d\tbad \377 byte and more words here\n", i
			else
				printf "d%d\tword%d and some words %d near %d\n", i, i % 13, i % 7, i
		}
	}' >"$BATS_TEST_TMPDIR/in"
	sh-fp -C UTF-8 -c -L 5 "$BATS_TEST_TMPDIR/in" >"$BATS_TEST_TMPDIR/want" 2>"$BATS_TEST_TMPDIR/want.err" || true
	[ "$(wc -l <"$BATS_TEST_TMPDIR/want")" -eq 1996 ]
	eq "$(cat "$BATS_TEST_TMPDIR/want.err")" "$(printf 'sh-fp: 7 document(s) with invalid UTF-8, the first \"u11\" (-C names a charset; -U lists them)\nsh-fp: skipped 4 document(s) without features\nsh-fp: 7 of 1996 document(s) with fewer than 5 features: short, see sh-fp(1)')"
	for j in 2 3 64; do
		sh-fp -C UTF-8 -j "$j" -c -L 5 "$BATS_TEST_TMPDIR/in" >"$BATS_TEST_TMPDIR/got" 2>"$BATS_TEST_TMPDIR/got.err"
		cmp "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"
		cmp "$BATS_TEST_TMPDIR/want.err" "$BATS_TEST_TMPDIR/got.err"
	done
	# Token lists with errors in them: each reported where it lies.
	awk 'BEGIN {
		for (i = 1; i <= 1000; i++)
			printf "t%d\ta^%s b c%d\n", i, i % 250 == 3 ? "x" : "2", i
	}' >"$BATS_TEST_TMPDIR/tok"
	run -2 --separate-stderr sh-fp -t "$BATS_TEST_TMPDIR/tok"
	want=$output want_err=$stderr
	[ "${#stderr_lines[@]}" -eq 4 ]
	run -2 --separate-stderr sh-fp -j 3 -t "$BATS_TEST_TMPDIR/tok"
	eq "$output" "$want"
	eq "$stderr" "$want_err"
	# Records the reader refuses, skipped (-e) or reported, in order.
	printf '{"id":"a","text":"one two three"}\nnot json\n{"id":"b","text":"four five six"}\n' >"$BATS_TEST_TMPDIR/j"
	run -2 --separate-stderr sh-fp -f jsonl "$BATS_TEST_TMPDIR/j"
	want=$output want_err=$stderr
	eq "$stderr" "sh-fp: $BATS_TEST_TMPDIR/j:2: malformed JSON"
	run -2 --separate-stderr sh-fp -j 2 -f jsonl "$BATS_TEST_TMPDIR/j"
	eq "$output" "$want"
	eq "$stderr" "$want_err"
	run -0 --separate-stderr sh-fp -j 2 -e -f jsonl "$BATS_TEST_TMPDIR/j"
	eq "$output" "$want"
	eq "$stderr" "sh-fp: skipped 1 bad record(s)"
	run -2 --separate-stderr sh-fp -j 0 /dev/null
	eq "$stderr" "sh-fp: -j 0: number out of range"
	run -2 --separate-stderr sh-fp -j 65 /dev/null
	eq "$stderr" "sh-fp: -j 65: number out of range"
}
