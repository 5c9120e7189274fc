"""The cluster wing: verify() on a Dask cluster, with the documents in shards so that no worker holds the
whole corpus. Part of the pipeline floor: it may import the single-machine stages and the floors below.
"""
