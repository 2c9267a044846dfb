"""Writes orig.jsonl, shifted.jsonl and planted.jsonl: a class whose methods depend on the clock (in
milliseconds and in whole seconds),
randomness and object ids beside stable ones. shifted.jsonl is the same program with the random
state and the heap moved at import (an honest rewrite may do either); planted.jsonl also counts
wrong in a stable method, after an unstable step. Run by hand after editing; the outputs are
checked in."""
import json

SRC = '''import random
import time


class Ticket:
    def __init__(self, owner):
        self.owner = owner
        self.items = []

    def add(self, item):
        self.items.append(item)
        return len(self.items)

    def serial(self):
        return id(self) % 100000

    def lucky(self):
        return random.randint(1, 10 ** 9)

    def stamp(self):
        return int(time.time() * 1000)

    def token(self):
        return hash(object()) % 100000

    def clock(self):
        return time.strftime('%H:%M:%S')
'''
TESTS = '''import unittest


class TicketTest(unittest.TestCase):
    def test_add(self):
        t = Ticket('ann')
        self.assertEqual(t.add('a'), 1)
        t.serial()
        t.lucky()
        t.stamp()
        t.token()
        self.assertEqual(t.add('b'), 2)

    def test_owner(self):
        t = Ticket('bob')
        self.assertEqual(t.owner, 'bob')
        t.clock()
        self.assertEqual(t.add('x'), 1)
'''
SHIFT = "import time\n\nrandom.random()\n_PAD = [object() for _ in range(1000)]\n"
PLANT = "        self.items.append(item)\n        if len(item) > 1:\n            return len(self.items) + 1\n"


def task(src):
    return {"id": "unstable/ticket", "source": src, "entry_point": "Ticket",
            "tests": {"kind": "unittest", "code": TESTS, "classes": ["TicketTest"]}, "extra_files": {}, "meta": {}}


for name, src in (("orig", SRC), ("shifted", SRC.replace("import time\n", SHIFT)),
                  ("planted", SRC.replace("        self.items.append(item)\n", PLANT))):
    with open(name + ".jsonl", "w") as f:
        f.write(json.dumps(task(src)) + "\n")
