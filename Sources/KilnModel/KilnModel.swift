// KilnModel: tolerant models. See ARCHITECTURE.md ("Models").
