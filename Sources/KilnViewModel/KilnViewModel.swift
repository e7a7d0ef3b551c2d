// KilnViewModel: see ARCHITECTURE.md. Built by its own issue.
