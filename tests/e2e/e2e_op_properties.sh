#!/bin/sh
# The operators' property suite (tests/e2e/op_properties.py): programs that use names dynamically,
# every site of every operator transformed, every variant run and compared with its original.
exec /usr/bin/python3 "${GB_SOURCE_ROOT:?}/tests/e2e/op_properties.py"
