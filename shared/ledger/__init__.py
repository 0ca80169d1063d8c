"""The ledger: append-only records of expenses, income, transfers and reminders."""
