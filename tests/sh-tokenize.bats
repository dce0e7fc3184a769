#!/usr/bin/env bats
# sh-tokenize: documents in, "ID<TAB>tok^w tok^w ..." out.

load helper

# The rules are shown on the features of fingerprint version 1: single
# words, CJK bigrams, term frequency.
export V1='-n 2 -w 1 -W tf'

USAGE=$'usage: sh-tokenize [-12AceFGHlQXz] [-C charset] [-D idf] [-d dict] [-f format]\n                   [-I idfield] [-M types] [-n ngram] [-s stopwords]\n                   [-T textfield] [-U file] [-W weight] [-w shingle]\n                   [-y types] [file ...]\n       sh-tokenize -m [file ...]\n       sh-tokenize -h | -V'

# --- usage and option values ---------------------------------------------

@test "unknown option: usage on stderr, exit 2" {
	run -2 --separate-stderr sh-tokenize -q </dev/null
	eq "$output" ""
	eq "$(printf '%s\n' "${stderr_lines[@]: -6}")" "$USAGE"
	[ "${#stderr_lines[@]}" -eq 7 ]
}

@test "option without its argument: usage, exit 2" {
	run -2 --separate-stderr sh-tokenize -n </dev/null
	eq "$output" ""
	eq "$(printf '%s\n' "${stderr_lines[@]: -6}")" "$USAGE"
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
	run -2 --separate-stderr sh-tokenize -n 2y </dev/null
	eq "$stderr" "sh-tokenize: -n 2y: invalid value"
	run -2 --separate-stderr sh-tokenize -n x </dev/null
	eq "$stderr" "sh-tokenize: -n x: invalid value"
	run -2 --separate-stderr sh-tokenize -n 0x </dev/null
	eq "$stderr" "sh-tokenize: -n 0x: number out of range"
	run -2 --separate-stderr sh-tokenize -n 17x </dev/null
	eq "$stderr" "sh-tokenize: -n 17x: number out of range"
	run -2 --separate-stderr sh-tokenize -w 3x </dev/null
	eq "$stderr" "sh-tokenize: -w 3x: invalid value"
}

# --- -n Nx: n-grams across punctuation, spaces and other scripts --------

@test "-n 2x: CJK bigrams across punctuation, spaces, line breaks and Latin words, the words shingled across the CJK" {
	local d="$BATS_TEST_TMPDIR"
	printf '{"id":"a","text":"我用Linux系统，很好。\\n Hello, big world 再 见"}\n' >"$d/in"
	run -0 --separate-stderr sh-tokenize -f jsonl -n 2x "$d/in"
	eq "$output" $'a\t我用^1 用系^1 系统^1 统很^1 linux_hello_big^1 hello_big_world^1 很好^1 好再^1 再见^1'
	eq "$stderr" ""
	run -0 sh-tokenize -f jsonl -n 2x -w 1 "$d/in"
	eq "$output" $'a\tlinux^1 我用^1 用系^1 系统^1 统很^1 hello^1 big^1 world^1 很好^1 好再^1 再见^1'
	# Without x, each run and each stretch of words stands alone.
	run -0 sh-tokenize -f jsonl -n 2 "$d/in"
	eq "$output" $'a\t我用^1 linux^1 系统^1 很好^1 hello_big_world^1 再^1 见^1'
}

@test "-n 5x: fewer than 5 CJK characters in all make one feature; a mark after a separator joins no CJK character" {
	printf 'a\t中，国\nb\t中国 ab 人。文 cd\nc\t中国人文字\nd\t中,\xcc\x81国\n' >"$BATS_TEST_TMPDIR/in"
	run -0 --separate-stderr sh-tokenize -n 5x "$BATS_TEST_TMPDIR/in"
	eq "$output" $'a\t中国^1\nb\t中国人文^1 ab_cd^1\nc\t中国人文字^1\nd\t中国^1 \xcc\x81^1'
	eq "$stderr" ""
}

@test "-n 5x: a comma, a line break or a space inserted moves a pair's similarity by no more than one changed character does; without x, each changes it" {
	local d="$BATS_TEST_TMPDIR" s sub i n alt
	# The seed's sentence, and one character of it changed.
	s=你妈妈喊你回家吃饭哦回家罗回家罗
	sub=你妈妈叫你回家吃饭哦回家罗回家罗
	n=${#s}
	{
		printf '{"id":"s","text":"%s"}\n' "$s"
		printf '{"id":"sub","text":"%s"}\n' "$sub"
		for ((i = 1; i < n; i++)); do
			printf '{"id":"comma%d","text":"%s，%s"}\n' $i "${s:0:i}" "${s:i}"
			printf '{"id":"nl%d","text":"%s\\n%s"}\n' $i "${s:0:i}" "${s:i}"
			printf '{"id":"sp%d","text":"%s %s"}\n' $i "${s:0:i}" "${s:i}"
		done
	} >"$d/docs"
	for ((i = 1; i < n; i++)); do
		printf 's\tcomma%d\ns\tnl%d\ns\tsp%d\n' $i $i $i
	done >"$d/pairs"
	printf 's\tsub\n' >"$d/subpair"
	for alt in "-n 5x" "-n 5x -J weighted" "-n 2x" "-n 5x -J edit"; do
		# shellcheck disable=SC2086
		run -0 sh-dist -v "$d/docs" -f jsonl $alt "$d/subpair"
		want=${output##*$'\t'}
		# shellcheck disable=SC2086
		run -0 sh-dist -v "$d/docs" -f jsonl $alt "$d/pairs"
		eq "${#lines[@]}" $((3 * (n - 1)))
		eq "$(printf '%s\n' "$output" | awk -F'\t' -v w="$want" '$3 < w' | head -n 3)" ""
		eq "$(printf '%s\n' "$output" | cut -f 3 | sort -u)" "1.000000"
	done
	# Without x (-n 5, and version 2), the comma, the line break and
	# the space each cut the run: every pair is below 1.
	run -1 sh-dist -v "$d/docs" -f jsonl -n 5 -a 1 "$d/pairs"
	eq "$output" ""
	run -1 sh-dist -v "$d/docs" -f jsonl -2 -a 1 "$d/pairs"
	eq "$output" ""
	# The default is 5x.
	run -0 sh-dist -v "$d/docs" -f jsonl -a 1 "$d/pairs"
	eq "${#lines[@]}" $((3 * (n - 1)))
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

# --- default features: fingerprint version 3 ----------------------------

@test "no feature option is -n 5x -w 3 -W binary; -2 is -n 5 -w 3 -W binary" {
	local d="$BATS_TEST_TMPDIR" want

	gen_corpus "$d/in" 500
	printf 'm\tThe quick brown fox, jumps 我们今天去北京 over\n' >>"$d/in"
	run -0 --separate-stderr sh-tokenize -n 5x -w 3 -W binary "$d/in"
	want=$output
	[ -n "$want" ]
	run -0 --separate-stderr sh-tokenize "$d/in"
	eq "$output" "$want"
	eq "$stderr" ""
	run -0 --separate-stderr sh-tokenize -n 5 -w 3 -W binary "$d/in"
	want=$output
	run -0 --separate-stderr sh-tokenize -2 "$d/in"
	eq "$output" "$want"
}

@test "the default: word 3-shingles, CJK 5-grams across the text, every token weighs 1" {
	printf 'm\tThe quick brown fox, jumps 我们今天去北京 over\nr\tgo go go go 天天天天天天\n' \
	    >"$BATS_TEST_TMPDIR/in"
	run -0 --separate-stderr sh-tokenize "$BATS_TEST_TMPDIR/in"
	# The comma does not break the shingles; the run of seven characters
	# gives three 5-grams, and the word shingles go on across it.
	eq "$output" $'m\tthe_quick_brown^1 quick_brown_fox^1 brown_fox_jumps^1 我们今天去^1 们今天去北^1 fox_jumps_over^1 今天去北京^1\nr\tgo_go_go^1 天天天天天^1'
	eq "$stderr" ""
	# Version 2: the run resets the window, so "over" stands alone.
	run -0 --separate-stderr sh-tokenize -2 "$BATS_TEST_TMPDIR/in"
	eq "$output" $'m\tthe_quick_brown^1 quick_brown_fox^1 brown_fox_jumps^1 我们今天去^1 们今天去北^1 今天去北京^1 over^1\nr\tgo_go_go^1 天天天天天^1'
}

@test "-w: shingles of words short and long, many per document, as built by hand" {
	# Words of 1 to 900 letters, 2,000 of them: the window slides over
	# a buffer that fills and moves to its front many times.
	awk 'BEGIN {
		printf "d\t"
		for (i = 0; i < 2000; i++) {
			n = (i * 7919) % 900 + 1
			w = sprintf("%c", 97 + i % 26)
			while (length(w) < n)
				w = w w
			printf "%s ", substr(w, 1, n) i
		}
		printf "\n"
	}' >"$BATS_TEST_TMPDIR/in"
	for w in 2 3 5; do
		awk -v w="$w" -F '\t' '{
			n = split($2, t, " ")
			printf "d\t"
			for (i = 1; i + w - 1 <= n; i++) {
				s = t[i]
				for (j = 1; j < w; j++)
					s = s "_" t[i + j]
				printf "%s%s^1", (i > 1 ? " " : ""), s
			}
			printf "\n"
		}' "$BATS_TEST_TMPDIR/in" >"$BATS_TEST_TMPDIR/want"
		sh-tokenize -w "$w" -W tf "$BATS_TEST_TMPDIR/in" >"$BATS_TEST_TMPDIR/got"
		cmp "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"
	done
}

@test "-n 2 -w 1 -W tf still gives the tokens of version 1" {
	printf 'm\tThe quick brown fox, jumps 我们今天去北京 over\nr\tgo go go go 天天天天天天\n' \
	    >"$BATS_TEST_TMPDIR/in"
	run -0 --separate-stderr sh-tokenize -n 2 -w 1 -W tf "$BATS_TEST_TMPDIR/in"
	eq "$output" $'m\tthe^1 quick^1 brown^1 fox^1 jumps^1 我们^1 们今^1 今天^1 天去^1 去北^1 北京^1 over^1\nr\tgo^4 天天^5'
	eq "$stderr" ""
}

# --- features and weights ------------------------------------------------

@test "term frequencies, tokens in order of first occurrence" {
	run -0 --separate-stderr sh -c \
	    'printf "a\tHello hello World\nb\tb a b c a\n" | sh-tokenize $V1'
	eq "$output" $'a\thello^2 world^1\nb\tb^2 a^2 c^1'
	eq "$stderr" ""
}

@test "-W tf: a token weighs its count, over the binary default" {
	run -0 --separate-stderr sh -c \
	    'printf "b\tb a b c a\n" | sh-tokenize -w 1 -W tf'
	eq "$output" $'b\tb^2 a^2 c^1'
}

@test "-W logtf: 1 + ln tf with three decimals at most" {
	run -0 --separate-stderr sh -c 'printf "d\tx y y z z z w w w w w w w w w w\n" |
	    sh-tokenize $V1 -W logtf'
	eq "$output" $'d\tx^1 y^1.693 z^2.099 w^3.303'
	eq "$stderr" ""
}

@test "-W binary: every distinct token weighs 1" {
	run -0 --separate-stderr sh -c \
	    'printf "b\tb a b c a\n" | sh-tokenize $V1 -W binary'
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
	    sh-tokenize $V1'
	eq "$output" $'f\tfull^1 strasse^1 fine^1 éclair^1 σασ^1 x2^1 123^1'
	eq "$stderr" ""
}

@test "combining marks compose with the character before them" {
	# e + U+0301, E + U+0301, decomposed Hangul, halfwidth katakana with
	# a voiced mark, compatibility jamo.
	run -0 --separate-stderr sh -c 'printf "c\tcafe\314\201 CAF\303\211 E\314\201T\303\211\n" |
	    sh-tokenize $V1'
	eq "$output" $'c\tcafé^2 été^1'
	run -0 --separate-stderr sh -c 'printf "h\t\341\204\222\341\205\241\341\206\253\352\270\200 한글\n" |
	    sh-tokenize $V1'
	eq "$output" $'h\t한글^2'
	run -0 --separate-stderr sh -c 'printf "k\tｶﾞｷﾞ ㄱㅏ\n" | sh-tokenize $V1'
	eq "$output" $'k\tガギ^1 가^1'
}

@test "punctuation, symbols and spaces separate; digits stay in words" {
	run -0 --separate-stderr sh -c \
	    'printf "p\tR2-D2 a,b;c x+y=z e^2 snake_case 3.14 ab12cd\n" | sh-tokenize $V1'
	eq "$output" $'p\tr2^1 d2^1 a^1 b^1 c^1 x^1 y^1 z^1 e^1 2^1 snake^1 case^1 3^1 14^1 ab12cd^1'
}

@test "a soft hyphen vanishes" {
	run -0 --separate-stderr sh -c 'printf "s\tco\302\255operate\n" | sh-tokenize'
	eq "$output" $'s\tcooperate^1'
}

@test "Chinese: overlapping character bigrams" {
	run -0 --separate-stderr sh -c 'printf "z\t中文分词\n" | sh-tokenize $V1'
	eq "$output" $'z\t中文^1 文分^1 分词^1'
	eq "$stderr" ""
}

@test "-n sets the n-gram size; a shorter run is one token" {
	printf 'z\t中文分词\ny\t中文\nx\t中\n' >"$BATS_TEST_TMPDIR/in"
	run -0 --separate-stderr sh-tokenize $V1 -n 3 "$BATS_TEST_TMPDIR/in"
	eq "$output" $'z\t中文分^1 文分词^1\ny\t中文^1\nx\t中^1'
	run -0 --separate-stderr sh-tokenize $V1 -n 1 "$BATS_TEST_TMPDIR/in"
	eq "$output" $'z\t中^1 文^1 分^1 词^1\ny\t中^1 文^1\nx\t中^1'
	run -0 --separate-stderr sh-tokenize $V1 "$BATS_TEST_TMPDIR/in"
	eq "$output" $'z\t中文^1 文分^1 分词^1\ny\t中文^1\nx\t中^1'
}

@test "n-gram runs break at punctuation, spaces and Latin words" {
	run -0 --separate-stderr sh -c \
	    'printf "r\t中文，分词 中 文 中文abc分词\n" | sh-tokenize $V1'
	eq "$output" $'r\t中文^2 分词^2 中^1 文^1 abc^1'
}

@test "Japanese: kanji and kana in one run" {
	run -0 --separate-stderr sh -c 'printf "j\t東京タワー ひらがな\n" | sh-tokenize $V1'
	eq "$output" $'j\t東京^1 京タ^1 タワ^1 ワー^1 ひら^1 らが^1 がな^1'
}

@test "Korean and Thai: character bigrams" {
	run -0 --separate-stderr sh -c \
	    'printf "k\t안녕하세요\nt\tภาษาไทย\n" | sh-tokenize $V1'
	eq "$output" $'k\t안녕^1 녕하^1 하세^1 세요^1\nt\tภา^1 าษ^1 ษา^1 าไ^1 ไท^1 ทย^1'
}

@test "-z: traditional Chinese becomes simplified, simplified stays" {
	printf 't\t國語說，後來\ns\t国语说，后来\n' >"$BATS_TEST_TMPDIR/in"
	run -0 --separate-stderr sh-tokenize $V1 -z "$BATS_TEST_TMPDIR/in"
	eq "$output" $'t\t国语^1 语说^1 后来^1\ns\t国语^1 语说^1 后来^1'
	eq "$stderr" ""
	run -0 --separate-stderr sh-tokenize $V1 "$BATS_TEST_TMPDIR/in"
	eq "$output" $'t\t國語^1 語說^1 後來^1\ns\t国语^1 语说^1 后来^1'
}

@test "-z: after folding, kanji included, other scripts unchanged" {
	# U+F900 folds to 豈 and U+2FA8 KANGXI RADICAL GATE to 門.
	run -0 --separate-stderr sh -c \
	    'printf "c\t\357\244\200\342\276\250 東京タワー Straße 안녕\n" | sh-tokenize $V1 -z'
	eq "$output" $'c\t岂门^1 东京^1 京タ^1 タワ^1 ワー^1 strasse^1 안녕^1'
}

@test "-z folds the words of -d and -s too, wherever it stands" {
	cd "$BATS_TEST_TMPDIR"
	printf '國語 10\n說明 5\n' >dict
	printf '說明\n' >stop
	printf 't\t國語說明\n' >in
	run -0 --separate-stderr sh-tokenize $V1 -d dict in
	eq "$output" $'t\t國語^1 說明^1'
	for opts in '-d dict -z' '-z -d dict'; do
		run -0 --separate-stderr sh-tokenize $V1 $opts in
		eq "$output" $'t\t国语^1 说明^1'
	done
	for opts in '-s stop -z' '-z -s stop'; do
		run -0 --separate-stderr sh-tokenize $V1 $opts in
		eq "$output" $'t\t国语^1 语说^1'
	done
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

@test "-w: an n-gram run resets the window within runs (-n 5), not across them (the default)" {
	run -0 --separate-stderr sh -c \
	    'printf "a\ta b 中文 c d\nb\ta 中文 b\n" | sh-tokenize -n 5 -w 2'
	eq "$output" $'a\ta_b^1 中文^1 c_d^1\nb\ta^1 中文^1 b^1'
	run -0 --separate-stderr sh -c \
	    'printf "a\ta b 中文 c d\nb\ta 中文 b\n" | sh-tokenize -w 2'
	eq "$output" $'a\ta_b^1 b_c^1 c_d^1 中文^1\nb\ta_b^1 中文^1'
}

@test "frozen tokens of the test vectors" {
	run -0 --separate-stderr sh-tokenize $V1 "$FIXTURES/vectors.in"
	eq "$stderr" ""
	sh-tokenize $V1 "$FIXTURES/vectors.in" >"$BATS_TEST_TMPDIR/out"
	same_files "$FIXTURES/vectors.tok" "$BATS_TEST_TMPDIR/out"
}

# --- dictionary (-d) -----------------------------------------------------

@test "-d: n-gram runs are cut into dictionary words" {
	small_dict "$BATS_TEST_TMPDIR/dict"
	run -0 --separate-stderr sh -c 'printf "z\t中华人民共和国，中国人民 分词\n" |
	    sh-tokenize $V1 -d "$0"' "$BATS_TEST_TMPDIR/dict"
	eq "$output" $'z\t中^1 华^1 人民^2 共和国^1 中国^1 分词^1'
	eq "$stderr" ""
}

@test "-d: one word beats two rarer ones, unknown characters stand alone" {
	small_dict "$BATS_TEST_TMPDIR/dict"
	run -0 --separate-stderr sh -c 'printf "a\t中国人\nb\t好中国\n" |
	    sh-tokenize $V1 -d "$0"' "$BATS_TEST_TMPDIR/dict"
	eq "$output" $'a\t中国人^1\nb\t好^1 中国^1'
}

@test "-d -w: shingles run over Latin and dictionary words alike" {
	small_dict "$BATS_TEST_TMPDIR/dict"
	run -0 --separate-stderr sh -c 'printf "w\tGNU中国人民, the 分词\n" |
	    sh-tokenize -d "$0" -w 2' "$BATS_TEST_TMPDIR/dict"
	eq "$output" $'w\tgnu_中国^1 中国_人民^1 人民_the^1 the_分词^1'
}

@test "-d with -n: the n-gram size is unused" {
	small_dict "$BATS_TEST_TMPDIR/dict"
	printf 'z\t中国人民\n' >"$BATS_TEST_TMPDIR/in"
	run -0 --separate-stderr sh-tokenize $V1 -n 3 -d "$BATS_TEST_TMPDIR/dict" \
	    "$BATS_TEST_TMPDIR/in"
	eq "$output" $'z\t中国^1 人民^1'
}

@test "-d: kana and Hangul too; an empty dictionary gives characters" {
	printf 'ひらがな 3\n안녕 2\n' >"$BATS_TEST_TMPDIR/dict"
	: >"$BATS_TEST_TMPDIR/empty"
	printf 'k\tひらがなです 안녕하세요\n' >"$BATS_TEST_TMPDIR/in"
	run -0 --separate-stderr sh-tokenize $V1 -d "$BATS_TEST_TMPDIR/dict" \
	    "$BATS_TEST_TMPDIR/in"
	eq "$output" $'k\tひらがな^1 で^1 す^1 안녕^1 하^1 세^1 요^1'
	run -0 --separate-stderr sh-tokenize $V1 -d "$BATS_TEST_TMPDIR/empty" \
	    "$BATS_TEST_TMPDIR/in"
	eq "$output" $'k\tひ^1 ら^1 が^1 な^1 で^1 す^1 안^1 녕^1 하^1 세^1 요^1'
}

@test "-d: the last -d counts" {
	small_dict "$BATS_TEST_TMPDIR/dict"
	printf '中国人民 1\n' >"$BATS_TEST_TMPDIR/other"
	run -0 --separate-stderr sh -c 'printf "z\t中国人民\n" |
	    sh-tokenize -d "$0" -d "$1"' "$BATS_TEST_TMPDIR/dict" \
	    "$BATS_TEST_TMPDIR/other"
	eq "$output" $'z\t中国人民^1'
}

@test "-d: a run over 1 MiB" {
	small_dict "$BATS_TEST_TMPDIR/dict"
	run -0 --separate-stderr sh -c '{ printf "big\t"; yes "中国人民" |
	    head -n 200000 | tr -d "\n"; echo; } | sh-tokenize $V1 -d "$0"' \
	    "$BATS_TEST_TMPDIR/dict"
	eq "$output" $'big\t中国^200000 人民^200000'
	eq "$stderr" ""
}

@test "-d: missing or unreadable dictionary, exit 2" {
	cd "$BATS_TEST_TMPDIR"
	mkdir dir
	run -2 --separate-stderr sh-tokenize -d nosuch </dev/null
	eq "$output" ""
	eq "$stderr" "sh-tokenize: nosuch: No such file or directory"
	run -2 --separate-stderr sh-tokenize -d dir </dev/null
	eq "$stderr" "sh-tokenize: dir: Is a directory"
}

@test "-d: a bad dictionary line is reported with its number, exit 2" {
	cd "$BATS_TEST_TMPDIR"
	printf '中国 3\n\n人民\n' >nofreq
	printf '中国 3 n\n人民 x n\n' >notnum
	printf '中国 3\n\377 1\n' >badutf8
	printf 'a 4611686018427387904\nb 1\n' >toobig
	run -2 --separate-stderr sh-tokenize -d nofreq </dev/null
	eq "$output" ""
	eq "$stderr" "sh-tokenize: nofreq:3: malformed dictionary line"
	run -2 --separate-stderr sh-tokenize -d notnum </dev/null
	eq "$stderr" "sh-tokenize: notnum:2: malformed dictionary line"
	run -2 --separate-stderr sh-tokenize -d badutf8 </dev/null
	eq "$stderr" "sh-tokenize: badutf8:2: invalid UTF-8"
	run -2 --separate-stderr sh-tokenize -d toobig </dev/null
	eq "$stderr" "sh-tokenize: toobig:2: number out of range"
}

@test "-d: the dictionary may have blank lines, CRLF and no final newline" {
	printf '\r\n中国 20 ns\r\n\n  人民 15\t n\r\n分词 1' >"$BATS_TEST_TMPDIR/dict"
	run -0 --separate-stderr sh -c 'printf "z\t中国人民分词\n" |
	    sh-tokenize $V1 -d "$0"' "$BATS_TEST_TMPDIR/dict"
	eq "$output" $'z\t中国^1 人民^1 分词^1'
}

# --- input framing -------------------------------------------------------

@test "the ID is everything before the first TAB" {
	run -0 --separate-stderr sh -c \
	    'printf "id 1\tone\ttwo\n\tthree\n" | sh-tokenize $V1'
	eq "$output" $'id 1\tone^1 two^1\n\tthree^1'
}

@test "-l: every line is a document numbered from 1" {
	printf 'one two\n\tthree\n\n' >"$BATS_TEST_TMPDIR/a"
	run -0 --separate-stderr sh-tokenize $V1 -l "$BATS_TEST_TMPDIR/a"
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
	run -0 --separate-stderr sh-tokenize $V1 -F a b empty
	eq "$output" $'a\tone^2 two^1 three^1\nb\tfour^1\nempty\t'
	eq "$stderr" ""
}

@test "-F: stdin is the document -" {
	run -0 --separate-stderr sh -c 'printf "one\ntwo one\n" | sh-tokenize $V1 -F'
	eq "$output" $'-\tone^2 two^1'
	run -0 --separate-stderr sh -c 'printf "one\n" | sh-tokenize $V1 -F -'
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
	    'printf "a\tone two\r\nb\tthree\r\n" | sh-tokenize $V1'
	eq "$output" $'a\tone^1 two^1\nb\tthree^1'
}

@test "an embedded NUL separates words" {
	run -0 --separate-stderr sh -c 'printf "a\tfoo\000bar\000foo\n" | sh-tokenize $V1'
	eq "$output" $'a\tfoo^2 bar^1'
	eq "$stderr" ""
}

@test "invalid UTF-8 (-C UTF-8) separates words and is counted once per document" {
	run -0 --separate-stderr sh -c \
	    'printf "a\tfoo\377bar\nb\tok\nc\t\303x\376\375\nd\t\355\240\200\n" | sh-tokenize -C UTF-8 $V1'
	eq "$output" $'a\tfoo^1 bar^1\nb\tok^1\nc\tx^1\nd\t'
	eq "$stderr" "sh-tokenize: 3 document(s) with invalid UTF-8, the first \"a\" (-C names a charset; -U lists them)"
}

@test "a line over 1 MiB" {
	run -0 --separate-stderr sh -c '{ printf "big\t"; yes "lorem ipsum dol" |
	    head -c 2097152 | tr "\n" " "; echo; } | sh-tokenize $V1'
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
	run -0 sh -c 'printf "t\tยง่าย\n" | sh-tokenize $V1'
	eq "$output" "$(printf 't\tยง่^1 ง่า^1 าย^1')"
}

# --- stop words (-s) -----------------------------------------------------

@test "-s @en drops English function words, whatever their case" {
	run -0 --separate-stderr sh -c \
	    'printf "a\tThe cat sat ON the mat and it is fine\n" | sh-tokenize $V1 -s @en'
	eq "$output" $'a\tcat^1 sat^1 mat^1 fine^1'
	eq "$stderr" ""
}

@test "-s: stop words go before shingling, so no shingle holds one" {
	run -0 --separate-stderr sh -c \
	    'printf "a\tThe cat sat on the mat\nb\tthe of\n" | sh-tokenize -s @en -w 2'
	eq "$output" $'a\tcat_sat^1 sat_mat^1\nb\t'
}

@test "-s @zh: n-grams and short runs equal to a stop word are dropped" {
	printf 'b\t他的书在这里。的\nc\t我们的书\n' >"$BATS_TEST_TMPDIR/in"
	run -0 --separate-stderr sh-tokenize $V1 -s @zh "$BATS_TEST_TMPDIR/in"
	# 这里 and 我们 are stop bigrams, the lone 的 a stop run; 的 inside a
	# bigram stays.
	eq "$output" $'b\t他的^1 的书^1 书在^1 在这^1\nc\t们的^1 的书^1'
	run -0 --separate-stderr sh-tokenize $V1 -s @zh -n 1 "$BATS_TEST_TMPDIR/in"
	eq "$output" $'b\t书^1 里^1\nc\t们^1 书^1'
}

@test "-s: a stop n-gram is dropped wherever it falls in a hashing batch" {
	# 200 characters, 5 in turn: the n-grams fill several batches of 32,
	# and each character falls at every place of one.
	printf '的\n了\n' >"$BATS_TEST_TMPDIR/stop"
	printf 'a\t%s\n' "$(printf '书的我了在%.0s' $(seq 40))" \
	    >"$BATS_TEST_TMPDIR/in"
	run -0 --separate-stderr sh-tokenize $V1 -s "$BATS_TEST_TMPDIR/stop" \
	    -n 1 "$BATS_TEST_TMPDIR/in"
	eq "$output" $'a\t书^40 我^40 在^40'
}

@test "-s FILE: entries folded like text, comments, several lists add up" {
	printf '# my list\nCAT  Ｍａｔ # fine is a comment\n书在\n' \
	    >"$BATS_TEST_TMPDIR/stop"
	printf 'a\tThe cat sat on the mat and it is fine\nb\t他的书在这里\n' \
	    >"$BATS_TEST_TMPDIR/in"
	run -0 --separate-stderr sh-tokenize $V1 -s "$BATS_TEST_TMPDIR/stop" \
	    -s @en "$BATS_TEST_TMPDIR/in"
	eq "$output" $'a\tsat^1 fine^1\nb\t他的^1 的书^1 在这^1 这里^1'
	eq "$stderr" ""
}

@test "-s ./@en reads a file named @en" {
	cd "$BATS_TEST_TMPDIR"
	printf 'cat\n' >@en
	run -0 --separate-stderr sh -c \
	    'printf "a\tthe cat\n" | sh-tokenize -s ./@en'
	eq "$output" $'a\tthe^1'
}

@test "-s errors: missing file, directory, unknown list, invalid UTF-8" {
	run -2 --separate-stderr sh-tokenize -s "$BATS_TEST_TMPDIR/nope" </dev/null
	eq "$output" ""
	eq "$stderr" "sh-tokenize: $BATS_TEST_TMPDIR/nope: No such file or directory"
	run -2 --separate-stderr sh-tokenize -s "$BATS_TEST_TMPDIR" </dev/null
	eq "$stderr" "sh-tokenize: $BATS_TEST_TMPDIR: Is a directory"
	run -2 --separate-stderr sh-tokenize -s @fr </dev/null
	eq "$stderr" "sh-tokenize: -s @fr: invalid value"
	printf 'ok\nbad\377\n' >"$BATS_TEST_TMPDIR/stop"
	run -2 --separate-stderr sh-tokenize -s "$BATS_TEST_TMPDIR/stop" </dev/null
	eq "$stderr" "sh-tokenize: $BATS_TEST_TMPDIR/stop:2: invalid UTF-8"
}

# --- document frequencies (-c, -m) ---------------------------------------

@test "-c: the document count, then TOKEN<TAB>DF in byte order" {
	run -0 --separate-stderr sh -c 'printf "a\tb a b\nb\tA c\nc\t\nd\t的书\n" |
	    sh-tokenize $V1 -c'
	eq "$output" $'\t4\na\t2\nb\t1\nc\t1\n的书\t1'
	eq "$stderr" ""
}

@test "-c: empty input counts no documents" {
	run -0 --separate-stderr sh-tokenize -c </dev/null
	eq "$output" $'\t0'
}

@test "-c agrees with document frequencies counted by awk" {
	local d="$BATS_TEST_TMPDIR"

	gen_corpus "$d/corpus" 2000
	sh-tokenize -n 1 -w 2 -s @en "$d/corpus" | awk -F '\t' '
	    { n = split($2, t, " "); delete seen
	      for (i = 1; i <= n; i++) {
		      sub(/\^[0-9.]*$/, "", t[i])
		      if (!(t[i] in seen)) { seen[t[i]] = 1; df[t[i]]++ } } }
	    END { for (k in df) print k "\t" df[k]; print "\t" NR }' |
	    LC_ALL=C sort >"$d/want"
	sh-tokenize -c -n 1 -w 2 -s @en "$d/corpus" >"$d/got"
	[ "$(wc -l <"$d/got")" -gt 100 ]
	same_files "$d/want" "$d/got"
}

@test "-c over shards, sort -m, -m: the same bytes as one pass" {
	local d="$BATS_TEST_TMPDIR"

	gen_corpus "$d/corpus" 3000
	sh-tokenize -c "$d/corpus" >"$d/one"
	awk -v d="$d" '{ print > (d "/part" NR % 3) }' "$d/corpus"
	for i in 0 1 2; do
		sh-tokenize -c "$d/part$i" >"$d/df$i"
	done
	LC_ALL=C sort -m "$d/df0" "$d/df1" "$d/df2" | sh-tokenize -m >"$d/merged"
	same_files "$d/one" "$d/merged"
	# A merge of merges, and the merged stream given as a file.
	LC_ALL=C sort -m "$d/df0" "$d/df1" >"$d/s01"
	sh-tokenize -m "$d/s01" >"$d/m01"
	LC_ALL=C sort -m "$d/m01" "$d/df2" >"$d/s"
	run -0 --separate-stderr sh-tokenize -m "$d/s"
	eq "$output" "$(cat "$d/one")"
}

@test "-m: lines out of order, bad lines: FILE:LINE, exit 2" {
	printf '\t2\nb\t1\na\t1\n' >"$BATS_TEST_TMPDIR/df"
	run -2 --separate-stderr sh-tokenize -m "$BATS_TEST_TMPDIR/df"
	eq "$stderr" "sh-tokenize: $BATS_TEST_TMPDIR/df:3: lines not in byte order (sort -m with LC_ALL=C)"
	run -2 --separate-stderr sh -c 'printf "\t2\na 1\n" | sh-tokenize -m'
	eq "$stderr" "sh-tokenize: <stdin>:2: not a TOKEN<TAB>COUNT line"
	run -0 --separate-stderr sh-tokenize -m </dev/null
	eq "$output" $'\t0'
}

@test "-m takes no other option: both named" {
	run -2 --separate-stderr sh-tokenize -m -c </dev/null
	eq "$stderr" "sh-tokenize: -m and -c cannot be used together"
	run -2 --separate-stderr sh-tokenize -n 1 -m </dev/null
	eq "$stderr" "sh-tokenize: -m and -n cannot be used together"
}

@test "-c, -m: write error on stdout: exit 2" {
	run -2 --separate-stderr sh -c 'printf "a\tb\n" | sh-tokenize -c >/dev/full'
	eq "$stderr" "sh-tokenize: stdout: No space left on device"
	run -2 --separate-stderr sh -c 'printf "\t1\nb\t1\n" | sh-tokenize -m >/dev/full'
	eq "$stderr" "sh-tokenize: stdout: No space left on device"
}

# --- IDF weights (-D) ----------------------------------------------------

@test "-D DF file: tf times 1 + ln((N + 1) / (df + 1)); unknown: df = 0" {
	printf '\t3\ncat\t1\nthe\t2\n' >"$BATS_TEST_TMPDIR/df"
	run -0 --separate-stderr sh -c 'printf "a\tthe cat the dog\n" |
	    sh-tokenize $V1 -D "$1"' sh "$BATS_TEST_TMPDIR/df"
	# the: 2 x 1.288; cat: 1.693; dog: 1 + ln 4 = 2.386
	eq "$output" $'a\tthe^2.576 cat^1.693 dog^2.386'
	run -0 --separate-stderr sh -c 'printf "a\tthe cat the dog\n" |
	    sh-tokenize $V1 -W logtf -D "$1"' sh "$BATS_TEST_TMPDIR/df"
	# the: 1.693 x 1.288 = 2.180584
	eq "$output" $'a\tthe^2.181 cat^1.693 dog^2.386'
}

@test "-D jieba file: IDF as given, the median for unknown words" {
	printf '北京 4.66740230872\n长城 6.70099930628\n我们 3.39131796699\n' \
	    >"$BATS_TEST_TMPDIR/idf"
	run -0 --separate-stderr sh -c 'printf "a\t我们去北京长城\n" |
	    sh-tokenize $V1 -D "$1"' sh "$BATS_TEST_TMPDIR/idf"
	eq "$output" $'a\t我们^3.391 们去^4.667 去北^4.667 北京^4.667 京长^4.667 长城^6.701'
}

@test "-D with the jieba file Debian ships" {
	local f=/usr/lib/python3/dist-packages/jieba/analyse/idf.txt

	[ -r "$f" ] || skip "python3-jieba is not installed"
	run -0 --separate-stderr sh -c 'printf "a\t我们今天去北京看长城\n" |
	    sh-tokenize $V1 -D "$1"' sh "$f"
	eq "$output" $'a\t我们^3.391 们今^11.955 今天^4.992 天去^11.955 去北^11.955 北京^4.667 京看^11.955 看长^11.955 长城^6.701'
}

@test "-D errors: missing file, bad lines, df above N, empty file" {
	local f="$BATS_TEST_TMPDIR/idf"

	run -2 --separate-stderr sh-tokenize -D "$f" </dev/null
	eq "$stderr" "sh-tokenize: $f: No such file or directory"
	printf '\t3\na\t1\nb\t4\n' >"$f"
	run -2 --separate-stderr sh-tokenize -D "$f" </dev/null
	eq "$stderr" "sh-tokenize: $f:3: document frequency above the document count"
	printf '\t3\na\t1\nb\n' >"$f"
	run -2 --separate-stderr sh-tokenize -D "$f" </dev/null
	eq "$stderr" "sh-tokenize: $f:3: not a TOKEN<TAB>COUNT line"
	printf 'a 1.5\nb x\n' >"$f"
	run -2 --separate-stderr sh-tokenize -D "$f" </dev/null
	eq "$stderr" "sh-tokenize: $f:2: not a WORD IDF line"
	printf 'a\t1\n' >"$f"
	run -2 --separate-stderr sh-tokenize -D "$f" </dev/null
	eq "$stderr" "sh-tokenize: $f:1: not a WORD IDF line"
	printf 'a 1000.001\n' >"$f"
	run -2 --separate-stderr sh-tokenize -D "$f" </dev/null
	eq "$stderr" "sh-tokenize: $f:1: number out of range"
	: >"$f"
	run -2 --separate-stderr sh-tokenize -D "$f" </dev/null
	eq "$stderr" "sh-tokenize: $f: no IDF entries"
	eq "$output" ""
}

# --- -Q: the text each document becomes --------------------------------

# Whether sh-tokenize -Q with the options $1 on file $2, read back by
# sh-fp -X -C utf-8, gives exactly the fingerprints sh-fp -$1 gives, with
# each feature option set $3 (spaces between the options of a set, ';'
# between sets); and that there are some.
q_round_trip() {
	local set want got
	IFS=';' read -r -a sets <<<"$3"
	for set in "${sets[@]}"; do
		want=$(sh-fp $1 $set "$2" 2>/dev/null)
		got=$(sh-tokenize -Q $1 "$2" 2>/dev/null | sh-fp -X -C utf-8 $set 2>/dev/null)
		[ -n "$want" ] || { echo "no fingerprints: $1 $set"; return 1; }
		[ "$want" = "$got" ] || { echo "-Q $1 $set:"; diff <(echo "$want") <(echo "$got"); return 1; }
	done
}

@test "-Q: ID<TAB>TEXT a line, the text as read: HTML reduced, charset made UTF-8, control bytes as spaces" {
	printf 'a\t<p>Caf&eacute; &amp;\tbar</p>\r\nb\tplain\x01text \\n as is\n' >"$BATS_TEST_TMPDIR/t.tsv"
	run -0 --separate-stderr sh-tokenize -Q "$BATS_TEST_TMPDIR/t.tsv"
	eq "$output" "$(printf 'a\t Café & bar\nb\tplain text \\n as is')"
	eq "$stderr" ""
	# The whole page, as version 2 read it.
	run -0 --separate-stderr sh-tokenize -Q -2 "$BATS_TEST_TMPDIR/t.tsv"
	eq "$output" "$(printf 'a\t Café & bar \nb\tplain text \\n as is')"
	printf '<html><head><meta charset="gbk"></head><body><p>今天\r\n天气</p></body></html>' |
	    iconv -f UTF-8 -t GBK >"$BATS_TEST_TMPDIR/g.html"
	run -0 --separate-stderr sh-tokenize -Q -F "$BATS_TEST_TMPDIR/g.html"
	eq "$output" "$BATS_TEST_TMPDIR/g.html	      今天  天气"
	# JSON text with newlines and a TAB; an ID escaped as always.
	printf '{"id":"x\\ty","text":"one\\ntwo\\tthree\\u0000four"}\n' >"$BATS_TEST_TMPDIR/t.jsonl"
	run -0 --separate-stderr sh-tokenize -Q -f jsonl "$BATS_TEST_TMPDIR/t.jsonl"
	eq "$output" 'x\ty	one two three four'
	# Empty input, a document without text.
	run -0 sh-tokenize -Q /dev/null
	eq "$output" ""
	run -0 sh -c "printf 'e\t\n' | sh-tokenize -Q"
	eq "$output" "$(printf 'e\t')"
}

@test "-Q: read back (-X -C utf-8), the fingerprints of the documents: the README's crawl, Chinese, CRLF, control bytes" {
	D=$BATS_TEST_TMPDIR
	FEAT=" ;-n 2 -w 1 -W tf;-n 1 -w 1;-z -n 2;-s @en -W logtf"
	zcat "$FIXTURES/crawl.warc.gz" >"$D/crawl.warc"
	q_round_trip "-f warc" "$D/crawl.warc" "$FEAT"
	q_round_trip "-f warc -M text/*" "$D/crawl.warc" "$FEAT"
	q_round_trip "-f warc -X" "$D/crawl.warc" "$FEAT"
	eq "$(sh-tokenize -Q -f warc "$D/crawl.warc" 2>/dev/null | sh-fp -X -C utf-8 | md5sum)" \
	    "$(sh-fp -f warc "$D/crawl.warc" 2>/dev/null | md5sum)"
	q_round_trip "" "$FIXTURES/sample.tsv" "$FEAT"
	q_round_trip "" "$FIXTURES/zdump-zh.tsv" "$FEAT"
	q_round_trip "" "$FIXTURES/short-zh.tsv" "$FEAT"
	# Chinese in GBK and Big5, declared and not; CRLF line ends.
	{ printf '今天北京的天气很好，适合出去散步。\r\n公园里有很多人在锻炼身体。\r\n'
	  printf '<p>今天北京的天气很好</p>\r\n<p>公園裡有很多人</p>\r\n'; } >"$D/zh.txt"
	iconv -f UTF-8 -t GBK "$D/zh.txt" >"$D/zh.gbk"
	iconv -f UTF-8 -t BIG5 <<<'今天北京的天氣很好，適合出去散步。公園裡有很多人在鍛鍊身體。' >"$D/zh.big5"
	for f in zh.txt zh.gbk zh.big5; do
		q_round_trip "-l" "$D/$f" "$FEAT"
		q_round_trip "-f para" "$D/$f" "$FEAT"
		q_round_trip "-F" "$D/$f" "$FEAT"
		q_round_trip "-F -H" "$D/$f" "$FEAT"
	done
	q_round_trip "-l -C gbk" "$D/zh.gbk" "$FEAT"
	# Every control byte, invalid UTF-8, combining marks after them,
	# after a first record of words (a file whose first line is a tenth
	# control bytes is binary data, refused at once: formats.bats).
	awk 'BEGIN { printf "d0\t"
		for (i = 0; i < 60; i++) printf "plain words "
		printf "\000"
		for (i = 1; i < 300; i++) {
		printf "d%d\t", i
		for (j = 0; j < 40; j++) {
			c = (i * 7 + j * 13) % 40
			if (c < 32 && c != 10 && c != 0) printf "%c", c
			else if (c == 32) printf "\177"
			else if (c == 33) printf "\314\201"
			else if (c == 34) printf "\377"
			else if (c == 35) printf "中"
			else printf "w%c", 97 + c % 26
		}
		printf "\000"
	} }' >"$D/ctl.nul"
	q_round_trip "-f nul" "$D/ctl.nul" "$FEAT"
}

@test "-Q: takes neither -c, -U nor -m" {
	run -2 --separate-stderr sh-tokenize -Q -c /dev/null
	eq "$stderr" "sh-tokenize: -Q and -c cannot be used together"
	run -2 --separate-stderr sh-tokenize -Q -U "$BATS_TEST_TMPDIR/u" /dev/null
	eq "$stderr" "sh-tokenize: -Q and -U cannot be used together"
	run -2 --separate-stderr sh-tokenize -m -Q /dev/null
	eq "$stderr" "sh-tokenize: -m and -Q cannot be used together"
	run -2 --separate-stderr sh -c 'printf "a\tb\n" | sh-tokenize -Q >/dev/full'
	eq "$stderr" "sh-tokenize: stdout: No space left on device"
}

@test "-n 5x: sh-fp and sh-near -v agree on it; fingerprints of other options are caught" {
	local d="$BATS_TEST_TMPDIR"
	printf 'a\t今天北京的天气很好，适合出去散步。\nb\t今天北京的天气很好适合出去散步\nc\t今天北京的天气不好，适合出去散步。\n' >"$d/in"
	sh-fp -n 5x "$d/in" >"$d/fp"
	sh-tokenize -n 5x "$d/in" | sh-fp -t | cmp - "$d/fp"
	run -0 --separate-stderr sh-near -v "$d/in" -n 5x -k 16 -a 0.9 "$d/fp"
	eq "$output" $'a\tb\t0\t1.000000'
	run -0 --separate-stderr sh-near -v "$d/in" -k 16 -a 0.9 "$d/fp"
	eq "$output" $'a\tb\t0\t1.000000'
	# Fingerprints of version 2, verified with the defaults of 3.
	sh-fp -2 "$d/in" >"$d/fp2"
	run -2 --separate-stderr sh-near -v "$d/in" -k 16 -a 0.9 "$d/fp2"
	[[ "$stderr" == *"fingerprint is not the document's under these options"* ]]
	# Verified so with -2: the commas cut the runs, no pair is at 0.9.
	run -1 --separate-stderr sh-near -v "$d/in" -2 -k 16 -a 0.9 "$d/fp2"
	eq "$stderr" ""
}
