"""The cluster wing: verify() on a Dask cluster, with the documents in shards so that no worker holds the
whole corpus. The client's side: ``client`` (run_on_cluster, in order), ``session`` (the connection),
``shards`` (the documents split, the exact fast path reduced) and ``gathering`` (a quote checked against
the documents it can match); the worker's side: ``worker`` (WorkerState, what a worker keeps, and its
tasks). Part of the pipeline floor: it may import the single-machine stages and the floors below; a
worker module imports no client module.
"""
