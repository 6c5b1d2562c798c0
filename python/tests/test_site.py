"""Site mode in Python: ``SiteProfile``, ``site_host`` and the Spark recipe
``examples/spark_site.py`` (on the local Spark session of ``conftest.py``), checked
against ``mainline filter --by-site``."""

import json
import subprocess

import pytest

import mainline
from conftest import ROOT, SAMPLES
from test_scaling_out import _example

HARBOUR = ROOT / "data" / "site" / "harbour"
# A teaser headline every harbour page carries but its own story's page, whose headline it is.
TEASER = "Lighthouse opens its lantern room to visitors"
OWN = "lighthouse-open"


def _harbour():
    return sorted(HARBOUR.glob("*.html"))


def _by_site_texts(cli, paths):
    """The text ``mainline filter --by-site`` writes for each of ``paths``."""
    out = subprocess.run(
        [str(cli), "filter", "-q", "--by-site", *map(str, paths)], capture_output=True
    )
    assert out.returncode == 0, out.stderr
    parts = out.stdout.decode("utf-8").split("\x0c\n")
    assert parts[-1] == "" and len(parts) == len(paths) + 1
    return [p[:-1] if p.endswith("\n") else p for p in parts[:-1]]


def test_site_host():
    assert mainline.site_host("https://www.Example.org:443/a") == "example.org"
    assert mainline.site_host("page.html") is None


def test_a_profile_drops_the_template_as_the_command_does(cli):
    files = _harbour()
    assert len(files) >= 20
    profile = mainline.SiteProfile(p.read_bytes() for p in files)
    assert profile.sites == 1
    assert profile.pages("harbour-gazette.example") == len(files)
    texts = [profile.extract(p.read_bytes()) for p in files]
    assert texts == _by_site_texts(cli, files)
    assert all((TEASER in t) == (p.stem == OWN) for p, t in zip(files, texts))
    assert sum(TEASER in mainline.extract(p.read_bytes()) for p in files) > 1
    # A str page, with its URL: the same text.
    page = files[0].read_text("utf-8")
    assert profile.extract(page, url="https://harbour-gazette.example/x") == texts[0]


def test_a_site_of_one_page_is_extracted_as_alone():
    page = (SAMPLES / "article.html").read_bytes()
    profile = mainline.SiteProfile([("https://one.example/a", page)])
    assert profile.extract(page, url="https://one.example/a") == mainline.extract(page)


def test_profiles_are_saved_and_read_back(tmp_path):
    profile = mainline.SiteProfile()
    for p in _harbour()[:5]:
        assert profile.learn(p.read_bytes()) == "harbour-gazette.example"
    assert profile.learn("<p>No canonical link here.</p>") is None
    again = mainline.SiteProfile.from_json(profile.to_json())
    assert again.to_json() == profile.to_json()
    path = tmp_path / "site.profile"
    profile.save(path)
    assert mainline.SiteProfile.load(path).pages("harbour-gazette.example") == 5
    with pytest.raises(mainline.MainlineError, match="version"):
        mainline.SiteProfile.from_json(profile.to_json().replace('"version":2', '"version":9'))
    with pytest.raises(mainline.MainlineError, match="not a site profile"):
        mainline.SiteProfile.from_json("{}")


def test_spark_recipe_extracts_each_site_with_its_template(spark, cli, tmp_path):
    example = _example("spark_site")
    files = _harbour() + [SAMPLES / "article.html", SAMPLES / "news-related.html"]
    rows = [
        {"url": f"https://harbour-gazette.example/news/{p.stem}.html", "html": p.read_text("utf-8")}
        for p in files[:-2]
    ] + [
        {"url": f"https://sample{i}.example/{p.stem}", "html": p.read_text("utf-8")}
        for i, p in enumerate(files[-2:])
    ]
    src = tmp_path / "pages.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    df = spark.read.json(str(src)).repartition(2)
    got = {r["url"]: r["text"] for r in example.extract_frame(df).collect()}
    assert len(got) == len(rows)
    want = _by_site_texts(cli, files)
    assert [got[r["url"]] for r in rows] == want
    assert all((TEASER in got[r["url"]]) == (p.stem == OWN) for p, r in zip(files, rows[:-2]))
