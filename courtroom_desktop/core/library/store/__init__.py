"""Storing: the catalog, the vector table and the text index, kept in agreement by one writer; an ingest's storing
half, the embedding cache and the embedder switch. May import reading, chunking and embedding; they never import it."""
