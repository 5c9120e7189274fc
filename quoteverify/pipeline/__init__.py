"""The pipeline: the stages in order, from documents and quotes to one result per quote, on one machine
(``stages``, each quote's result built once by ``results``, the alignment spread over processes by
``parallel``) or on a Dask cluster (``cluster``). It may import
every floor below it (judge, search, sources, plumbing, model), nothing of the application, the
exports or the command line.
"""
