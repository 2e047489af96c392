"""Pinocchio's engine: the readable rules (the specification). Its modules import only this sub-package and
:mod:`trustme_analysis.engine`."""
