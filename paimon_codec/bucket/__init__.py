"""Dynamic-bucket hash index files, the primary-key BinaryRow hash and bucket assignment."""
