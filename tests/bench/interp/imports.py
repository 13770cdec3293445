# SPDX-License-Identifier: GPL-2.0
# tests/bench/interp/imports.py: the start of a realistic Python program,
# for the benchmark (tests/bench/guest-bench): the modules a command-line
# tool with a network client, a mail parser, subprocesses and an event
# loop imports, then its argument parser, and nothing else.
# With --count it prints how many code files the imports read (modules
# loaded from a .py or .pyc file: each one file opened through
# io.open_code) and how many extension modules (.so, loaded by dlopen()).
import argparse
import asyncio
import base64
import csv
import datetime
import decimal
import email.message
import email.parser
import email.policy
import email.utils
import hashlib
import http.client
import json
import logging
import logging.handlers
import pathlib
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
import uuid
import xml.etree.ElementTree
import zipfile


def count():
    files = ext = 0
    for mod in list(sys.modules.values()):
        loader = type(getattr(mod, "__loader__", None)).__name__
        if loader in ("SourceFileLoader", "SourcelessFileLoader"):
            files += 1
        elif loader == "ExtensionFileLoader":
            ext += 1
    print(f"code_files={files} extension_modules={ext} modules={len(sys.modules)}")


parser = argparse.ArgumentParser(description="the imports of a realistic program")
parser.add_argument("--count", action="store_true")
if parser.parse_args().count:
    count()
