"""File indexes: container, bitmap, bloom filter, range bitmap, BSI; predicates and evaluation."""
