// Replaced by the reliability suite of Docs/Reliability.md.
