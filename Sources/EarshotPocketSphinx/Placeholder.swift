// Placeholder: replaced as the target is built.
