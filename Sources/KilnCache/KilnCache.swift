// KilnCache: see ARCHITECTURE.md. Built by its own issue.
