// Replaced by the example modules of Docs/Testing.md.
