/* Names documents: docs/a.md#intro-and-more resolves; docs/a.md#gone does not; DESIGN.md is
 * not in the tree; docs/a.md §Intro cites a section by name. */
