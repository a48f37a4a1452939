"""A library on object storage, shared by a team (docs/scale.md): where it lives (location), the commit lock that
keeps several writers consistent (commit_lock), its catalog as Lance tables (catalog), and the writer's rule under
that lock with this machine's BM25 cache kept in step (writer)."""
