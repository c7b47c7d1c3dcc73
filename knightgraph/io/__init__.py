"""Reading and writing: the formats of answers and the tour files."""
