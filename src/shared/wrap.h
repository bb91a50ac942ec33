/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Text folded at spaces to fit a width, for people at a terminal: --help at
 * 80 columns, status's lines and knobs's descriptions at the terminal's
 * width.  The text is printed as it is (escape it first when it comes from
 * outside).  Implemented by wrap.c.
 */
#pragma once

#include <stddef.h>
#include <stdio.h>

/*
 * text (one line) to f, the cursor standing at column col: words are
 * joined by one space, and a word that would end past width starts a new
 * line indented by indent spaces.  A quoted span ('vm.x = 1', opened at
 * the start of a word) is one word.  A word longer than a whole line stands
 * on a line of its own, never cut.  width 0: one line, as it is.  Ends
 * without a newline; returns the column where the cursor stands.
 */
size_t wrap_fputs(FILE *f, const char *text, size_t col, size_t indent, size_t width);

/*
 * The width of the terminal on fd (TIOCGWINSZ, else $COLUMNS, else 80); 0
 * when fd is no terminal, so that a pipe gets each line whole.
 */
size_t wrap_width(int fd);
