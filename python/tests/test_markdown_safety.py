"""The Markdown of the Python API is safe to render: a <pre> cannot break its fence."""

import mainline

PAGE = (
    "<article><h1>Heading here</h1><p>Paragraph long enough to be kept as the content of the "
    "article by the model.</p><pre>```\n&lt;img src=x onerror=alert(1)&gt;\n</pre></article>"
)


def fences_and_code(markdown):
    """The code blocks of ``markdown`` (fenced with backticks) and the lines outside them."""
    blocks, outside, fence, body = [], [], None, []
    for line in markdown.split("\n"):
        ticks = len(line) - len(line.lstrip("`"))
        if fence is None:
            if ticks >= 3:
                fence, body = ticks, []
            else:
                outside.append(line)
        elif ticks >= fence and not line.strip("`").strip():
            blocks.append("\n".join(body))
            fence = None
        else:
            body.append(line)
    assert fence is None, f"unclosed fence in {markdown!r}"
    return blocks, outside


def test_a_pre_holding_three_backticks_stays_inside_its_fence():
    for markdown in (
        mainline.Extractor(format="markdown").extract(PAGE),
        mainline.extract(PAGE, format="markdown"),
    ):
        blocks, outside = fences_and_code(markdown)
        assert blocks == ["```\n<img src=x onerror=alert(1)>"], markdown
        assert not any("<img" in line for line in outside), markdown
