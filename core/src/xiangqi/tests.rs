//! Unit tests of the Xiangqi module live in core/tests; this file holds internal ones.
