"""Shared by the replay scripts of training/ (rescue-replay.py, groups-replay.py): the page
word F1 of decisions over a page's labelled lines, as they approximate the benchmark's
score. Standard library only."""


def word_f1(lines, keep):
    """Word F1 of the decisions `keep` (one bool per line) over `lines`, (is content, words)
    pairs: the words of kept content lines against those of all kept and all content lines.
    A page with no content and nothing kept scores 1."""
    tp = fp = fn = 0
    for (label, words), k in zip(lines, keep):
        if k and label:
            tp += words
        elif k:
            fp += words
        elif label:
            fn += words
    if tp + fp + fn == 0:
        return 1.0
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return 2 * p * r / (p + r) if p + r else 0.0
