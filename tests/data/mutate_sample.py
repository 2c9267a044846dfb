"""A small program written for the mutation tests: every operator has work here."""
from typing import List, Optional

THRESHOLD = 3
SEPARATOR = ", "


def clamp(value: int, low: int = 0, high: int = 10) -> int:
    """Keep value within [low, high]."""
    if value < low:
        return low
    elif value > high:
        return high
    return value


def mean(values: List[float]) -> float:
    total = 0.0
    count = 0
    for v in values:
        total = total + v
        count += 1
    if count == 0:
        raise ValueError("mean of an empty list: %d" % count)
    return total / count


def is_sorted(xs) -> bool:
    i = 1
    while i < len(xs) and xs[i - 1] <= xs[i]:
        i += 1
    return i >= len(xs)


def describe(n):
    parity = n % 2 == 0
    if parity and n > THRESHOLD or n == -1:
        label = "big even"
    else:
        label = f"number {n:>4}"
    return label.upper() + SEPARATOR


def first_gap(xs: List[int]) -> Optional[int]:
    for k in range(len(xs) - 1):
        if xs[k + 1] - xs[k] != 1:
            return xs[k] + 1
    return None


def digits(n):
    count = 0
    while n > 0:
        n = n // 10
        count = count + 1
    return count


class Inventory:
    def __init__(self):
        self.items = {}

    def add(self, name, qty=1):
        if not name:
            return False
        self.items[name] = self.items.get(name, 0) + qty
        return True

    def total(self):
        return sum(self.items.values()) * 1.0


if __name__ == "__main__":
    print(describe(4), mean([1.0, 2.5]), digits(12345))
