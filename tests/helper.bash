# Shared setup for the bats suite: the tests run the binaries built in the
# repository's bin/, never installed ones.  Load with `load helper`.

bats_require_minimum_version 1.5.0

PATH="$BATS_TEST_DIRNAME/../bin:$PATH"
FIXTURES="$BATS_TEST_DIRNAME/fixtures"

# eq ACTUAL EXPECTED: succeed when the two strings are equal, else show
# both, quoted so that TABs and trailing spaces show.
eq() {
	[ "$1" = "$2" ] && return 0
	printf 'expected: %q\nactual:   %q\n' "$2" "$1"
	return 1
}

# same_files EXPECTED ACTUAL: byte-for-byte equal files; show a diff if not.
same_files() {
	cmp -s "$1" "$2" && return 0
	diff -u "$1" "$2" | head -40
	return 1
}

# fp_via_tokens [OPTION ...] [FILE ...]: check that sh-tokenize with these
# arguments piped into sh-fp -t prints exactly what sh-fp prints with them,
# and that there is something to compare.
fp_via_tokens() {
	local d="$BATS_TEST_TMPDIR"

	sh-fp "$@" >"$d/direct" 2>/dev/null
	sh-tokenize "$@" 2>/dev/null | sh-fp -t >"$d/piped" 2>/dev/null
	if [ ! -s "$d/direct" ]; then
		echo "sh-fp $*: no fingerprints"
		return 1
	fi
	if ! cmp -s "$d/direct" "$d/piped"; then
		echo "sh-fp $* differs from sh-tokenize $* | sh-fp -t:"
		diff -u "$d/direct" "$d/piped" | head -20
		return 1
	fi
}

# small_dict FILE: a small dictionary in jieba's format (WORD FREQ [TAG]),
# total frequency 99, for -d.
small_dict() {
	printf '%s\n' '中 5' '国 5' '中国 20 ns' '人 10 n' '民 3' '人民 15 n' \
	    '中国人 4' '共和国 8' '共和 6' '分词 7 n' >"$1"
}

# gen_corpus FILE [DOCS]: write DOCS (default 3000) deterministic
# pseudo-random ID<TAB>TEXT documents mixing English, Chinese, Japanese,
# Korean, folded forms and punctuation, with repeated words; some are empty
# or hold punctuation only.
gen_corpus() {
	awk -v n="${2:-3000}" 'BEGIN {
		nv = split("the quick brown fox jumps over lazy dog and of to " \
		    "Hashing INDEX data 2024 R2-D2 café ＦＵＬＬ Straße ﬁne " \
		    "我们 今天去北京 长城 天气很好 分词 東京タワー ひらがな " \
		    "カタカナ 안녕하세요 오늘 날씨가 , . ! ? ... -- ( ) 「」 。", v, " ")
		x = 1
		for (i = 1; i <= n; i++) {
			x = (x * 75 + 74) % 65537
			len = x % 41
			line = ""
			for (j = 0; j < len; j++) {
				x = (x * 75 + 74) % 65537
				# Favour the first words so that counts exceed 1.
				k = x % 3 ? x % 12 + 1 : x % nv + 1
				line = line (j ? " " : "") v[k]
			}
			printf "d%d\t%s\n", i, line
		}
	}' >"$1"
}

# rand_fps FILE N SEED: N fingerprints, a third of them planted near an
# earlier one (1 to 5 bits flipped), IDs f1..fN.
rand_fps() {
	awk -v n="$2" -v seed="$3" 'BEGIN {
		srand(seed)
		for (i = 1; i <= n; i++) {
			if (i > 1 && rand() < 0.34) {
				s = fp[int(rand() * (i - 1)) + 1]
				for (f = int(rand() * 5) + 1; f > 0; f--) {
					p = int(rand() * 16) + 1
					c = index("0123456789abcdef", substr(s, p, 1)) - 1
					b = 2 ^ int(rand() * 4)
					c += int(c / b) % 2 ? -b : b
					s = substr(s, 1, p - 1) substr("0123456789abcdef", c + 1, 1) substr(s, p + 1)
				}
			} else {
				s = ""
				for (j = 0; j < 16; j++)
					s = s substr("0123456789abcdef", int(rand() * 16) + 1, 1)
			}
			fp[i] = s
			printf "%s\tf%d\n", s, i
		}
	}' >"$1"
}

# brute_query K INDEXED QUERIES: every "QID<TAB>ID<TAB>DIST" within K
# between the fingerprint lines of QUERIES and INDEXED, by sh-dist over
# all pairs, sorted.
brute_query() {
	awk -F '\t' 'NR == FNR { f[NR] = $1; id[NR] = $2; n = NR; next }
	    { for (i = 1; i <= n; i++) print $1 "\t" f[i] "\t" $2 "\t" id[i] }' \
	    "$2" "$3" | sh-dist -p -k "$1" | cut -f 3- | LC_ALL=C sort
}

# near_copies FILE N SEED: N source documents of 120 to 200 words drawn
# from 300, each followed by three copies with 0.5 to 12 % of its words
# replaced: over word 3-shingles, pairs from unrelated (Jaccard 0) through
# about 0.6 to 0.99.  IDs dI and dIcJ.
near_copies() {
	awk -v n="$2" -v seed="$3" 'BEGIN {
		x = seed
		for (d = 1; d <= n; d++) {
			x = (x * 1103515245 + 12345) % 2147483648
			len = 120 + x % 80
			s = ""
			for (i = 0; i < len; i++) {
				x = (x * 1103515245 + 12345) % 2147483648
				w[i] = "w" int(x / 65536) % 300
				s = s (i ? " " : "") w[i]
			}
			print "d" d "\t" s
			for (c = 1; c <= 3; c++) {
				x = (x * 1103515245 + 12345) % 2147483648
				rate = (x % 120 + 5) / 1000
				s = ""
				for (i = 0; i < len; i++) {
					x = (x * 1103515245 + 12345) % 2147483648
					t = (x % 100000) / 100000 < rate ? \
					    "z" x % 997 : w[i]
					s = s (i ? " " : "") t
				}
				print "d" d "c" c "\t" s
			}
		}
	}' >"$1"
}

# all_pairs DOCS: every pair of the IDs of DOCS, earlier first, in order.
all_pairs() {
	cut -f 1 "$1" | awk '{ id[NR] = $0 } END {
	    for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++)
		print id[i] "\t" id[j] }'
}
