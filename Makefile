# sh: near-duplicate detection with simhash.  POSIX make.

PREFIX = /usr/local
BINDIR = $(PREFIX)/bin
MANDIR = $(PREFIX)/share/man

CC = cc
CFLAGS = -O2 -g
LDFLAGS =
# Required flags stay apart from CFLAGS so a user's CFLAGS never drop them.
SH_CFLAGS = -std=c99 -D_DEFAULT_SOURCE -Wall -Wextra -pedantic -Ilib
SH_LIBS = -lm -lpthread

HDR = lib/bag.h lib/cluster.h lib/dedup.h lib/df.h lib/dict.h lib/docmap.h \
	lib/errors.h lib/explain.h lib/fingerprint.h lib/fpset.h lib/fpstore.h \
	lib/fplist.h lib/hash.h lib/hex.h lib/hmap.h lib/html.h lib/idf.h \
	lib/index.h lib/join.h lib/json.h lib/num.h lib/plan.h lib/record.h \
	lib/segment.h lib/shard.h lib/similar.h lib/simhash.h lib/stopword.h \
	lib/tokenize.h lib/unicode.h lib/utf8.h lib/verify.h lib/weight.h \
	lib/xsort.h
LIBOBJ = lib/bag.o lib/cluster.o lib/dedup.o lib/df.o lib/dict.o lib/docmap.o \
	lib/errors.o lib/explain.o lib/fingerprint.o lib/fpset.o lib/fpstore.o \
	lib/fplist.o lib/hash.o lib/hex.o lib/hmap.o lib/html.o lib/idf.o \
	lib/index.o lib/join.o lib/json.o lib/num.o lib/plan.o lib/record.o \
	lib/segment.o lib/shard.o lib/similar.o lib/simhash.o lib/stopword.o \
	lib/t2s.o lib/tokenize.o lib/unitab.o lib/utf8.o lib/verify.o \
	lib/weight.o lib/xsort.o
BIN = bin/sh-dist bin/sh-fp bin/sh-index bin/sh-near bin/sh-tokenize
MAN1 = man/sh-dist.1 man/sh-fp.1 man/sh-index.1 man/sh-near.1 \
	man/sh-tokenize.1
MAN5 = man/sh-index.5
UNIT = tests/unit/dict_test tests/unit/docmap_test tests/unit/fp_test \
	tests/unit/hash_test tests/unit/idf_test tests/unit/index_test \
	tests/unit/near_test tests/unit/similar_test tests/unit/simhash_test \
	tests/unit/t2s_test tests/unit/unicode_test tests/unit/weight_test \
	tests/unit/xsort_test
BENCH = bench/gen bench/genfp bench/edit bench/evalstat bench/readrec

all: $(BIN)

.SUFFIXES: .c .o
.c.o:
	$(CC) $(SH_CFLAGS) $(CFLAGS) -c -o $@ $<

$(LIBOBJ): $(HDR)

lib/libsh.a: $(LIBOBJ)
	rm -f $@
	ar rcs $@ $(LIBOBJ)

$(BIN): lib/libsh.a $(HDR)
	@mkdir -p bin
	$(CC) $(SH_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ cmd/$$(basename $@).c \
		lib/libsh.a $(SH_LIBS)
bin/sh-dist: cmd/sh-dist.c
bin/sh-fp: cmd/sh-fp.c
bin/sh-index: cmd/sh-index.c
bin/sh-near: cmd/sh-near.c
bin/sh-tokenize: cmd/sh-tokenize.c

$(UNIT): lib/libsh.a $(HDR) tests/unit/tap.h tests/unit/rng.h \
		tests/unit/fpsets.h
	$(CC) $(SH_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $@.c lib/libsh.a \
		$(SH_LIBS)
tests/unit/dict_test: tests/unit/dict_test.c
tests/unit/docmap_test: tests/unit/docmap_test.c
tests/unit/hash_test: tests/unit/hash_test.c
tests/unit/idf_test: tests/unit/idf_test.c
tests/unit/index_test: tests/unit/index_test.c
tests/unit/near_test: tests/unit/near_test.c
tests/unit/similar_test: tests/unit/similar_test.c
tests/unit/simhash_test: tests/unit/simhash_test.c
tests/unit/fp_test: tests/unit/fp_test.c
tests/unit/t2s_test: tests/unit/t2s_test.c
tests/unit/unicode_test: tests/unit/unicode_test.c
tests/unit/weight_test: tests/unit/weight_test.c
tests/unit/xsort_test: tests/unit/xsort_test.c

$(BENCH): lib/libsh.a
	$(CC) $(SH_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $@.c lib/libsh.a \
		$(SH_LIBS)
bench/gen: bench/gen.c
bench/genfp: bench/genfp.c
bench/edit: bench/edit.c
bench/evalstat: bench/evalstat.c
bench/readrec: bench/readrec.c

check: $(BIN) $(UNIT)
	tests/run

demo: $(BIN)
	@tools/demo

bench: $(BIN) bench/gen bench/genfp bench/readrec
	bench/run.sh

eval: $(BIN) bench/edit bench/evalstat
	bench/eval.sh
	bench/jieba-f1.sh
	bench/short.sh

lint:
	mandoc -Tlint -W warning $(MAN1) $(MAN5)

install: $(BIN)
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(MANDIR)/man5
	cp -f $(BIN) $(DESTDIR)$(BINDIR)/
	cp -f $(MAN1) $(DESTDIR)$(MANDIR)/man1/
	cp -f $(MAN5) $(DESTDIR)$(MANDIR)/man5/

uninstall:
	for f in $(BIN); do rm -f $(DESTDIR)$(BINDIR)/$${f#bin/}; done
	for f in $(MAN1); do rm -f $(DESTDIR)$(MANDIR)/man1/$${f#man/}; done
	for f in $(MAN5); do rm -f $(DESTDIR)$(MANDIR)/man5/$${f#man/}; done

clean:
	rm -f $(LIBOBJ) lib/libsh.a $(BIN) $(UNIT) $(BENCH)
	rm -rf bin

.PHONY: all check demo bench eval lint install uninstall clean
