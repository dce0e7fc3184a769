#!/usr/bin/env bats
# sh-tokenize: documents in, "ID<TAB>tok^w tok^w ..." out.

load helper

USAGE=$'usage: sh-tokenize [-eFHlz] [-f format] [-I idfield] [-n ngram] [-T textfield]\n                   [-W weight] [-w shingle] [-y types] [file ...]'

# --- usage and option values ---------------------------------------------

@test "unknown option: usage on stderr, exit 2" {
	run -2 --separate-stderr sh-tokenize -q </dev/null
	eq "$output" ""
	eq "$(printf '%s\n' "${stderr_lines[@]: -2}")" "$USAGE"
	[ "${#stderr_lines[@]}" -le 3 ]
}

@test "option without its argument: usage, exit 2" {
	run -2 --separate-stderr sh-tokenize -n </dev/null
	eq "$output" ""
	eq "$(printf '%s\n' "${stderr_lines[@]: -2}")" "$USAGE"
}

@test "-n out of range" {
	run -2 --separate-stderr sh-tokenize -n 0 </dev/null
	eq "$output" ""
	eq "$stderr" "sh-tokenize: -n 0: number out of range"
	run -2 --separate-stderr sh-tokenize -n 17 </dev/null
	eq "$stderr" "sh-tokenize: -n 17: number out of range"
}

@test "-n not a number" {
	run -2 --separate-stderr sh-tokenize -n x </dev/null
	eq "$output" ""
	eq "$stderr" "sh-tokenize: -n x: invalid value"
	run -2 --separate-stderr sh-tokenize -n 2x </dev/null
	eq "$stderr" "sh-tokenize: -n 2x: invalid value"
}

@test "-w out of range or not a number" {
	run -2 --separate-stderr sh-tokenize -w 0 </dev/null
	eq "$stderr" "sh-tokenize: -w 0: number out of range"
	run -2 --separate-stderr sh-tokenize -w 17 </dev/null
	eq "$stderr" "sh-tokenize: -w 17: number out of range"
	run -2 --separate-stderr sh-tokenize -w y </dev/null
	eq "$stderr" "sh-tokenize: -w y: invalid value"
}

@test "-W unknown scheme" {
	run -2 --separate-stderr sh-tokenize -W foo </dev/null
	eq "$output" ""
	eq "$stderr" "sh-tokenize: -W foo: invalid value"
}

@test "-n and -w accept 1 and 16" {
	printf 'a\tone two\n' >"$BATS_TEST_TMPDIR/in"
	run -0 --separate-stderr sh-tokenize -n 1 -w 16 "$BATS_TEST_TMPDIR/in"
	eq "$output" $'a\tone_two^1'
	run -0 --separate-stderr sh-tokenize -n 16 -w 1 "$BATS_TEST_TMPDIR/in"
	eq "$output" $'a\tone^1 two^1'
	eq "$stderr" ""
}

# --- features and weights ------------------------------------------------

@test "term frequencies, tokens in order of first occurrence" {
	run -0 --separate-stderr sh -c \
	    'printf "a\tHello hello World\nb\tb a b c a\n" | sh-tokenize'
	eq "$output" $'a\thello^2 world^1\nb\tb^2 a^2 c^1'
	eq "$stderr" ""
}

@test "-W tf is the default" {
	run -0 --separate-stderr sh -c \
	    'printf "b\tb a b c a\n" | sh-tokenize -W tf'
	eq "$output" $'b\tb^2 a^2 c^1'
}

@test "-W logtf: 1 + ln tf with three decimals at most" {
	run -0 --separate-stderr sh -c 'printf "d\tx y y z z z w w w w w w w w w w\n" |
	    sh-tokenize -W logtf'
	eq "$output" $'d\tx^1 y^1.693 z^2.099 w^3.303'
	eq "$stderr" ""
}

@test "-W binary: every distinct token weighs 1" {
	run -0 --separate-stderr sh -c \
	    'printf "b\tb a b c a\n" | sh-tokenize -W binary'
	eq "$output" $'b\tb^1 a^1 c^1'
}

@test "a document without features prints its ID and a TAB" {
	run -0 --separate-stderr sh -c \
	    'printf "e\t\np\t... !!! -- ()\nq\tok\n" | sh-tokenize'
	eq "$output" $'e\t\np\t\nq\tok^1'
	eq "$stderr" ""
}

@test "folding: NFKC and case folding" {
	run -0 --separate-stderr sh -c 'printf "f\tＦｕｌｌ Straße ﬁne Éclair ΣΑΣ x² １２３\n" |
	    sh-tokenize'
	eq "$output" $'f\tfull^1 strasse^1 fine^1 éclair^1 σασ^1 x2^1 123^1'
	eq "$stderr" ""
}

@test "combining marks compose with the character before them" {
	# e + U+0301, E + U+0301, decomposed Hangul, halfwidth katakana with
	# a voiced mark, compatibility jamo.
	run -0 --separate-stderr sh -c 'printf "c\tcafe\314\201 CAF\303\211 E\314\201T\303\211\n" |
	    sh-tokenize'
	eq "$output" $'c\tcafé^2 été^1'
	run -0 --separate-stderr sh -c 'printf "h\t\341\204\222\341\205\241\341\206\253\352\270\200 한글\n" |
	    sh-tokenize'
	eq "$output" $'h\t한글^2'
	run -0 --separate-stderr sh -c 'printf "k\tｶﾞｷﾞ ㄱㅏ\n" | sh-tokenize'
	eq "$output" $'k\tガギ^1 가^1'
}

@test "punctuation, symbols and spaces separate; digits stay in words" {
	run -0 --separate-stderr sh -c \
	    'printf "p\tR2-D2 a,b;c x+y=z e^2 snake_case 3.14 ab12cd\n" | sh-tokenize'
	eq "$output" $'p\tr2^1 d2^1 a^1 b^1 c^1 x^1 y^1 z^1 e^1 2^1 snake^1 case^1 3^1 14^1 ab12cd^1'
}

@test "a soft hyphen vanishes" {
	run -0 --separate-stderr sh -c 'printf "s\tco\302\255operate\n" | sh-tokenize'
	eq "$output" $'s\tcooperate^1'
}

@test "Chinese: overlapping character bigrams" {
	run -0 --separate-stderr sh -c 'printf "z\t中文分词\n" | sh-tokenize'
	eq "$output" $'z\t中文^1 文分^1 分词^1'
	eq "$stderr" ""
}

@test "-n sets the n-gram size; a shorter run is one token" {
	printf 'z\t中文分词\ny\t中文\nx\t中\n' >"$BATS_TEST_TMPDIR/in"
	run -0 --separate-stderr sh-tokenize -n 3 "$BATS_TEST_TMPDIR/in"
	eq "$output" $'z\t中文分^1 文分词^1\ny\t中文^1\nx\t中^1'
	run -0 --separate-stderr sh-tokenize -n 1 "$BATS_TEST_TMPDIR/in"
	eq "$output" $'z\t中^1 文^1 分^1 词^1\ny\t中^1 文^1\nx\t中^1'
	run -0 --separate-stderr sh-tokenize "$BATS_TEST_TMPDIR/in"
	eq "$output" $'z\t中文^1 文分^1 分词^1\ny\t中文^1\nx\t中^1'
}

@test "n-gram runs break at punctuation, spaces and Latin words" {
	run -0 --separate-stderr sh -c \
	    'printf "r\t中文，分词 中 文 中文abc分词\n" | sh-tokenize'
	eq "$output" $'r\t中文^2 分词^2 中^1 文^1 abc^1'
}

@test "Japanese: kanji and kana in one run" {
	run -0 --separate-stderr sh -c 'printf "j\t東京タワー ひらがな\n" | sh-tokenize'
	eq "$output" $'j\t東京^1 京タ^1 タワ^1 ワー^1 ひら^1 らが^1 がな^1'
}

@test "Korean and Thai: character bigrams" {
	run -0 --separate-stderr sh -c \
	    'printf "k\t안녕하세요\nt\tภาษาไทย\n" | sh-tokenize'
	eq "$output" $'k\t안녕^1 녕하^1 하세^1 세요^1\nt\tภา^1 าษ^1 ษา^1 าไ^1 ไท^1 ทย^1'
}

@test "-z: traditional Chinese becomes simplified, simplified stays" {
	printf 't\t國語說，後來\ns\t国语说，后来\n' >"$BATS_TEST_TMPDIR/in"
	run -0 --separate-stderr sh-tokenize -z "$BATS_TEST_TMPDIR/in"
	eq "$output" $'t\t国语^1 语说^1 后来^1\ns\t国语^1 语说^1 后来^1'
	eq "$stderr" ""
	run -0 --separate-stderr sh-tokenize "$BATS_TEST_TMPDIR/in"
	eq "$output" $'t\t國語^1 語說^1 後來^1\ns\t国语^1 语说^1 后来^1'
}

@test "-z: after folding, kanji included, other scripts unchanged" {
	# U+F900 folds to 豈 and U+2FA8 KANGXI RADICAL GATE to 門.
	run -0 --separate-stderr sh -c \
	    'printf "c\t\357\244\200\342\276\250 東京タワー Straße 안녕\n" | sh-tokenize -z'
	eq "$output" $'c\t岂门^1 东京^1 京タ^1 タワ^1 ワー^1 strasse^1 안녕^1'
}

@test "-w joins consecutive words with _" {
	run -0 --separate-stderr sh -c \
	    'printf "w\tA b, c. d\n" | sh-tokenize -w 2'
	eq "$output" $'w\ta_b^1 b_c^1 c_d^1'
	run -0 --separate-stderr sh -c \
	    'printf "w\ta b c d a b\n" | sh-tokenize -w 3'
	eq "$output" $'w\ta_b_c^1 b_c_d^1 c_d_a^1 d_a_b^1'
}

@test "-w: fewer words than the window give one token" {
	run -0 --separate-stderr sh -c 'printf "w\ta b c d\n" | sh-tokenize -w 5'
	eq "$output" $'w\ta_b_c_d^1'
}

@test "-w: an n-gram run resets the window" {
	run -0 --separate-stderr sh -c \
	    'printf "a\ta b 中文 c d\nb\ta 中文 b\n" | sh-tokenize -w 2'
	eq "$output" $'a\ta_b^1 中文^1 c_d^1\nb\ta^1 中文^1 b^1'
}

@test "frozen tokens of the test vectors" {
	run -0 --separate-stderr sh-tokenize "$FIXTURES/vectors.in"
	eq "$stderr" ""
	sh-tokenize "$FIXTURES/vectors.in" >"$BATS_TEST_TMPDIR/out"
	same_files "$FIXTURES/vectors.tok" "$BATS_TEST_TMPDIR/out"
}

# --- input framing -------------------------------------------------------

@test "the ID is everything before the first TAB" {
	run -0 --separate-stderr sh -c \
	    'printf "id 1\tone\ttwo\n\tthree\n" | sh-tokenize'
	eq "$output" $'id 1\tone^1 two^1\n\tthree^1'
}

@test "-l: every line is a document numbered from 1" {
	printf 'one two\n\tthree\n\n' >"$BATS_TEST_TMPDIR/a"
	run -0 --separate-stderr sh-tokenize -l "$BATS_TEST_TMPDIR/a"
	eq "$output" $'1\tone^1 two^1\n2\tthree^1\n3\t'
	eq "$stderr" ""
}

@test "-l with several files: IDs are FILE:N" {
	cd "$BATS_TEST_TMPDIR"
	printf 'one\ntwo\n' >a
	printf 'three' >b
	run -0 --separate-stderr sh-tokenize -l a b a
	eq "$output" $'a:1\tone^1\na:2\ttwo^1\nb:1\tthree^1\na:1\tone^1\na:2\ttwo^1'
}

@test "-F: every file is one document named by its path" {
	cd "$BATS_TEST_TMPDIR"
	printf 'one two\nthree\tone\n' >a
	printf 'four' >b
	: >empty
	run -0 --separate-stderr sh-tokenize -F a b empty
	eq "$output" $'a\tone^2 two^1 three^1\nb\tfour^1\nempty\t'
	eq "$stderr" ""
}

@test "-F: stdin is the document -" {
	run -0 --separate-stderr sh -c 'printf "one\ntwo one\n" | sh-tokenize -F'
	eq "$output" $'-\tone^2 two^1'
	run -0 --separate-stderr sh -c 'printf "one\n" | sh-tokenize -F -'
	eq "$output" $'-\tone^1'
}

@test "- reads stdin between files" {
	cd "$BATS_TEST_TMPDIR"
	printf 'a\tone\n' >a
	run -0 --separate-stderr sh -c 'printf "s\tstdin\n" | sh-tokenize a - a'
	eq "$output" $'a\tone^1\ns\tstdin^1\na\tone^1'
}

@test "empty input: no output, exit 0" {
	run -0 --separate-stderr sh-tokenize </dev/null
	eq "$output" ""
	eq "$stderr" ""
	run -0 --separate-stderr sh-tokenize -l /dev/null
	eq "$output" ""
	eq "$stderr" ""
}

@test "a last line without newline counts" {
	run -0 --separate-stderr sh -c 'printf "a\tone\nb\ttwo" | sh-tokenize'
	eq "$output" $'a\tone^1\nb\ttwo^1'
}

@test "CRLF lines read like LF lines" {
	run -0 --separate-stderr sh -c \
	    'printf "a\tone two\r\nb\tthree\r\n" | sh-tokenize'
	eq "$output" $'a\tone^1 two^1\nb\tthree^1'
}

@test "an embedded NUL separates words" {
	run -0 --separate-stderr sh -c 'printf "a\tfoo\000bar\000foo\n" | sh-tokenize'
	eq "$output" $'a\tfoo^2 bar^1'
	eq "$stderr" ""
}

@test "invalid UTF-8 separates words and is counted once per document" {
	run -0 --separate-stderr sh -c \
	    'printf "a\tfoo\377bar\nb\tok\nc\t\303x\376\375\nd\t\355\240\200\n" | sh-tokenize'
	eq "$output" $'a\tfoo^1 bar^1\nb\tok^1\nc\tx^1\nd\t'
	eq "$stderr" "sh-tokenize: 3 document(s) with invalid UTF-8"
}

@test "a line over 1 MiB" {
	run -0 --separate-stderr sh -c '{ printf "big\t"; yes "lorem ipsum dol" |
	    head -c 2097152 | tr "\n" " "; echo; } | sh-tokenize'
	eq "$output" $'big\tlorem^131072 ipsum^131072 dol^131072'
	eq "$stderr" ""
}

@test "a line without TAB is reported and skipped" {
	run -2 --separate-stderr sh -c 'printf "a\tone\nno tab\nb\ttwo\n" | sh-tokenize'
	eq "$output" $'a\tone^1\nb\ttwo^1'
	eq "$stderr" "sh-tokenize: <stdin>:2: missing TAB after ID"
	cd "$BATS_TEST_TMPDIR"
	printf 'x\n\nc\tthree\n' >f
	run -2 --separate-stderr sh-tokenize f
	eq "$output" $'c\tthree^1'
	eq "$stderr" $'sh-tokenize: f:1: missing TAB after ID\nsh-tokenize: f:2: missing TAB after ID'
}

@test "missing file: reported, other files processed, exit 2" {
	cd "$BATS_TEST_TMPDIR"
	printf 'a\tone\n' >a
	run -2 --separate-stderr sh-tokenize nosuch a
	eq "$output" $'a\tone^1'
	eq "$stderr" "sh-tokenize: nosuch: No such file or directory"
}

@test "unreadable file (a directory): reported, exit 2" {
	cd "$BATS_TEST_TMPDIR"
	mkdir dir
	printf 'a\tone\n' >a
	run -2 --separate-stderr sh-tokenize dir a
	eq "$output" $'a\tone^1'
	eq "$stderr" "sh-tokenize: dir: Is a directory"
}

@test "write error on stdout: exit 2" {
	run -2 --separate-stderr sh -c 'printf "a\tone\n" | sh-tokenize >/dev/full'
	eq "$stderr" "sh-tokenize: stdout: No space left on device"
}

@test "same input, same bytes" {
	gen_corpus "$BATS_TEST_TMPDIR/corpus"
	sh-tokenize -W logtf "$BATS_TEST_TMPDIR/corpus" >"$BATS_TEST_TMPDIR/1"
	sh-tokenize -W logtf "$BATS_TEST_TMPDIR/corpus" >"$BATS_TEST_TMPDIR/2"
	same_files "$BATS_TEST_TMPDIR/1" "$BATS_TEST_TMPDIR/2"
}

@test "a mark that does not compose stays with its base in n-grams" {
	run -0 sh -c 'printf "t\tยง่าย\n" | sh-tokenize'
	eq "$output" "$(printf 't\tยง่^1 ง่า^1 าย^1')"
}
