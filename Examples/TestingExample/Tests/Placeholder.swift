// Replaced by the example tests of Docs/Testing.md.
