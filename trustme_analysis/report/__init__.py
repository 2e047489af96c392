"""The PDF report built from stored sweep results (``python -m trustme_analysis.report OUTDIR``)."""
