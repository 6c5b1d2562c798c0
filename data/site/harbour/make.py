#!/usr/bin/env python3
"""Builds the pages of a small news site, The Harbour Gazette, and their gold text.

Every page shares one template (a menu, a cookie notice, a teaser grid, a most-read list,
a newsletter box, footer paragraphs) around a different article. The gold text of a page
(NAME.txt beside NAME.html) is its article: the headline and the paragraphs. Run it from
anywhere; it rewrites the files byte for byte.
"""

import html
import os

HERE = os.path.dirname(os.path.abspath(__file__))

# (slug, section, author, date, headline, paragraphs)
ARTICLES = [
    ("quay-repairs", "Town", "Mara Quinlan", "3 March 2026",
     "Repairs to the old stone quay finish a month early",
     ["The masons who spent the winter rebuilding the north face of the old stone quay packed up their scaffolding on Tuesday, four weeks ahead of the council's schedule.",
      "Storms in January had washed out a section of the wall the size of a small house, and for a while the harbour master feared the work would run into the summer season.",
      "Fishing boats will be able to tie up along the whole length of the quay again from Friday, when the last of the warning buoys is lifted."]),
    ("ferry-timetable", "Transport", "Idris Penhale", "5 March 2026",
     "Island ferry adds a second daily crossing in summer",
     ["From the first of May the ferry to Carrick Island will sail twice a day, leaving the harbour at half past eight in the morning and again at four in the afternoon.",
      "The operator says bookings for last summer's single crossing sold out on most weekends, and that islanders had asked for a way to reach the mainland and return on the same day.",
      "Winter sailings stay at one a day. Fares are unchanged, and children under five still travel free."]),
    ("fish-market", "Business", "Mara Quinlan", "9 March 2026",
     "Fish market moves to the east pier",
     ["The Monday fish auction will be held in the refurbished shed on the east pier from next week, ending forty years in the cramped hall behind the lifeboat station.",
      "Traders welcomed the extra space and the new cold store, though several said the longer walk from the car park would be hard on older buyers.",
      "The council has promised a drop-off bay beside the shed before the end of April."]),
    ("lifeboat-rescue", "Town", "Tomas Reilly", "11 March 2026",
     "Lifeboat crew rescues two kayakers off Gull Point",
     ["Two kayakers were brought ashore on Sunday evening after strong offshore winds carried them more than a mile from Gull Point.",
      "The volunteer crew launched within nine minutes of the call and found the pair clinging to one upturned boat, cold but unhurt.",
      "The coxswain urged paddlers to check the forecast and to carry a waterproof radio, and thanked a walker on the cliff path who raised the alarm."]),
    ("school-garden", "Community", "Aoife Brennan", "12 March 2026",
     "Pupils plant a sea-wall garden of salt-tolerant flowers",
     ["Children from St Brigid's primary school spent a wet afternoon planting sea thrift, samphire and sea kale in the beds along the promenade wall.",
      "The project began as a science lesson on which plants survive salt spray, and grew into a plan to brighten the stretch of wall that faces the bus shelter.",
      "Parents have offered to water the beds through the summer holidays."]),
    ("bakery-award", "Business", "Idris Penhale", "16 March 2026",
     "Harbour bakery wins a national prize for its rye loaf",
     ["The small bakery on Chapel Street has been named the best independent bakery in the region, and its dark rye loaf took first prize in the bread category.",
      "Owner Gwen Tallis, who opened the shop in a former net loft eleven years ago, said she still mixes every batch by hand before five in the morning.",
      "Queues on Saturday stretched past the post office, and the rye had sold out by ten."]),
    ("tide-gauge", "Environment", "Aoife Brennan", "18 March 2026",
     "New tide gauge will warn of surges hours earlier",
     ["A tide gauge fixed to the end of the breakwater last week sends a reading of the sea level every minute to the national flood forecasting centre.",
      "Until now the nearest gauge was thirty miles up the coast, and forecasters say local readings could give the town two or three more hours of warning before a storm surge.",
      "The gauge runs on a small solar panel and will be checked by the harbour staff once a month."]),
    ("choir-concert", "Arts", "Tomas Reilly", "20 March 2026",
     "Fishermen's choir returns to the chapel after three years",
     ["The Harbour Fishermen's Choir sang to a full chapel on Saturday night, its first concert there since the roof was closed for repairs.",
      "The programme mixed old sea shanties with hymns and a new piece written for the choir by a music teacher from the secondary school.",
      "Money from the retiring collection will go to the fund that keeps the chapel's organ in tune."]),
    ("parking-charges", "Town", "Mara Quinlan", "23 March 2026",
     "Council drops plan for winter parking charges",
     ["Plans to charge for parking on the seafront between November and February have been dropped after more than eight hundred residents objected.",
      "Shopkeepers had argued that the charges would drive away the few visitors who come out of season, and several councillors agreed.",
      "Summer charges will rise by ten pence an hour from June to pay for resurfacing the lower car park."]),
    ("seal-pups", "Environment", "Aoife Brennan", "25 March 2026",
     "Record number of seal pups counted on the outer rocks",
     ["Volunteers counting grey seals on the rocks beyond the lighthouse recorded sixty-two pups this winter, the most since the survey began.",
      "The wildlife trust believes quieter waters during the quay works may have helped, and asks boat owners to keep at least a hundred metres from the colony.",
      "Visitors can watch the seals safely from the viewing platform on the headland."]),
    ("library-hours", "Community", "Idris Penhale", "27 March 2026",
     "Library opens on Sunday afternoons from April",
     ["The town library will open from one until five on Sundays, the first change to its hours in more than a decade.",
      "Librarians say students revising for exams had asked for somewhere quiet to work at weekends, and families wanted time to visit together.",
      "The extra hours are paid for by a grant from the county's reading fund for the next two years."]),
    ("regatta-plans", "Sport", "Tomas Reilly", "30 March 2026",
     "Regatta committee asks for volunteers for its hundredth race day",
     ["Organisers of the summer regatta are looking for marshals, timekeepers and boat crews for the hundredth race day in August.",
      "This year's programme adds a rowing race for crews from the island and a parade of the old working boats that are still afloat.",
      "Anyone who would like to help can sign up at the sailing club on Thursday evenings."]),
    ("bridge-closure", "Transport", "Mara Quinlan", "1 April 2026",
     "Swing bridge closes for two weeks of maintenance",
     ["The swing bridge across the inner harbour will be closed to traffic from Monday while engineers replace the worn gear that turns it.",
      "Drivers are advised to use the ring road; pedestrians can cross on a temporary walkway beside the lock gates.",
      "Boats will be able to pass in and out of the inner harbour only at high water while the work goes on."]),
    ("artist-studio", "Arts", "Aoife Brennan", "3 April 2026",
     "Painter turns a disused ice house into an open studio",
     ["The stone ice house at the foot of Ropewalk Lane, empty since the fish processing works closed, has reopened as a painter's studio.",
      "Artist Carys Meade paints the harbour at dawn, and visitors can watch her at work on Wednesday and Saturday mornings.",
      "She hopes to hold a small exhibition of the town's young artists there in the autumn."]),
    ("water-quality", "Environment", "Idris Penhale", "6 April 2026",
     "Both town beaches keep their clean water rating",
     ["Samples taken from the harbour beach and from Long Sands last summer met the highest standard for bathing water again.",
      "The water company credits the storm tank it built beneath the promenade, which stops sewage overflowing into the sea during heavy rain.",
      "Lifeguards will patrol Long Sands every day from the end of May."]),
    ("football-final", "Sport", "Tomas Reilly", "8 April 2026",
     "Harbour Rovers reach the county cup final",
     ["A header in the last minute of extra time sent Harbour Rovers into their first county cup final in nineteen years.",
      "The part-time side came back from two goals down against the league leaders, roared on by more than a thousand supporters.",
      "The final will be played at the county ground on the second Saturday in May."]),
    ("museum-boat", "Arts", "Mara Quinlan", "10 April 2026",
     "Museum brings a restored pilot cutter home",
     ["The maritime museum has bought back the pilot cutter Morwenna, which guided ships into the harbour for half a century before being sold abroad.",
      "Volunteers spent two years replacing her planking and mast, and she will be moored beside the museum where visitors can go aboard.",
      "The museum is collecting photographs and memories of the pilots who sailed her."]),
    ("bus-route", "Transport", "Idris Penhale", "14 April 2026",
     "Hilltop estates get a bus service after long campaign",
     ["A new bus route linking the hilltop estates with the harbour and the health centre starts running on the first Monday of May.",
      "Residents campaigned for three years, saying the steep walk down to the nearest stop kept older people at home.",
      "Buses will run every forty minutes during the day, and the first month of travel is free."]),
    ("oyster-beds", "Business", "Aoife Brennan", "16 April 2026",
     "Oyster farm plans to double its beds in the estuary",
     ["The family oyster farm in the upper estuary has asked for permission to lay new trestles on a further six hectares of foreshore.",
      "Its owners say demand from restaurants has grown every year, and that oysters filter the water and help the seagrass beds recover.",
      "The marine authority will take comments on the plan until the end of May."]),
    ("lighthouse-open", "Community", "Tomas Reilly", "20 April 2026",
     "Lighthouse opens its lantern room to visitors",
     ["For the first time in its history the lighthouse on the headland will let visitors climb the hundred and twelve steps to the lantern room.",
      "Guided tours of eight people will run twice an hour on weekends, led by a former keeper who lived there before the light was automated.",
      "Tickets must be booked in advance, and children must be at least eight years old."]),
    ("harbour-dredging", "Environment", "Mara Quinlan", "22 April 2026",
     "Dredging of the harbour mouth delayed by nesting terns",
     ["Work to clear silt from the harbour mouth has been put back until September after a colony of little terns was found nesting on the sand bar.",
      "The birds are protected, and the dredging company agreed to wait until the chicks have fledged.",
      "Larger boats have been asked to enter the harbour only in the two hours either side of high tide."]),
    ("cafe-reopens", "Business", "Idris Penhale", "24 April 2026",
     "Seafront cafe reopens after fire",
     ["The Driftwood Cafe on the seafront has reopened, eight months after a kitchen fire forced it to close.",
      "Its owners rebuilt the kitchen and added a terrace facing the beach, and have kept the menu of crab sandwiches that regulars asked them not to change.",
      "The cafe will open every day until six through the summer."]),
    ("poetry-festival", "Arts", "Aoife Brennan", "27 April 2026",
     "Poetry festival fills the old sail loft",
     ["Readers and writers from across the country gathered in the old sail loft for the harbour's third poetry festival over the weekend.",
      "Highlights included a reading by a former trawlerman whose first collection was published this spring, and a workshop for teenagers.",
      "Organisers say next year's festival may spread to the chapel and the library as well."]),
    ("cliff-path", "Town", "Tomas Reilly", "29 April 2026",
     "Cliff path reopens after landslip repairs",
     ["The coast path between the harbour and Gull Point is open again after contractors rebuilt the stretch that slipped into the sea in February.",
      "The new route runs a few metres further inland and has a timber boardwalk over the wettest ground.",
      "Walkers are asked to keep dogs on leads where the path passes the sheep grazing on the headland."]),
]

MENU = ["Home", "Town", "Transport", "Business", "Environment", "Community", "Arts", "Sport", "Letters", "Weather"]

MOST_READ = [
    ("cliff-path", "Cliff path reopens after landslip repairs"),
    ("ferry-timetable", "Island ferry adds a second daily crossing in summer"),
    ("bakery-award", "Harbour bakery wins a national prize for its rye loaf"),
    ("seal-pups", "Record number of seal pups counted on the outer rocks"),
    ("football-final", "Harbour Rovers reach the county cup final"),
]

TEASERS = [
    ("lighthouse-open", "Community", "Lighthouse opens its lantern room to visitors",
     "Guided tours climb the hundred and twelve steps on weekends."),
    ("museum-boat", "Arts", "Museum brings a restored pilot cutter home",
     "The Morwenna is back where she worked for half a century."),
    ("oyster-beds", "Business", "Oyster farm plans to double its beds in the estuary",
     "Comments on the plan are open until the end of May."),
    ("bus-route", "Transport", "Hilltop estates get a bus service after long campaign",
     "Buses every forty minutes, and the first month is free."),
]


def esc(s):
    return html.escape(s, quote=True)


def page(slug, section, author, date, headline, paragraphs):
    menu = "\n".join(f'        <li><a href="/{m.lower()}/">{esc(m)}</a></li>' for m in MENU)
    most = "\n".join(
        f'        <li><a href="/news/{s}.html">{esc(t)}</a></li>' for s, t in MOST_READ
    )
    teasers = "\n".join(
        f'''      <div class="teaser">
        <span class="teaser-section">{esc(sec)}</span>
        <h3><a href="/news/{s}.html">{esc(t)}</a></h3>
        <p class="teaser-summary">{esc(summary)}</p>
      </div>'''
        for s, sec, t, summary in TEASERS
    )
    body = "\n".join(f"      <p>{esc(p)}</p>" for p in paragraphs)
    return f'''<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>{esc(headline)} | The Harbour Gazette</title>
  <link rel="canonical" href="https://www.harbour-gazette.example/news/{slug}.html">
  <meta property="og:site_name" content="The Harbour Gazette">
</head>
<body>
  <div class="cookie-notice">
    <p>We use cookies to remember your settings and to count visits to our pages. By continuing to browse the site you agree to our use of cookies.</p>
    <button>Accept</button>
  </div>
  <header class="site-header">
    <a class="logo" href="/">The Harbour Gazette</a>
    <nav class="main-menu">
      <ul>
{menu}
      </ul>
    </nav>
  </header>
  <main>
    <article class="story">
      <p class="section-label"><a href="/{section.lower()}/">{esc(section)}</a></p>
      <h1>{esc(headline)}</h1>
      <p class="byline">By {esc(author)}, {esc(date)}</p>
{body}
    </article>
    <aside class="sidebar">
      <section class="most-read">
        <h2>Most read</h2>
        <ol>
{most}
        </ol>
      </section>
      <section class="newsletter">
        <h2>The Harbour Gazette in your inbox</h2>
        <p>Sign up for our free weekly newsletter and get the week's news from the harbour, the island and the estuary every Friday morning, with the tide tables for the week ahead.</p>
        <form action="/newsletter" method="post"><input type="email" name="email" placeholder="Your email address"><button>Sign up</button></form>
      </section>
    </aside>
    <section class="teaser-grid">
      <h2>More from the Gazette</h2>
{teasers}
    </section>
  </main>
  <footer class="site-footer">
    <p>The Harbour Gazette is an independent community newspaper, written and edited by volunteers since 1987 and paid for by our readers and local advertisers.</p>
    <p>Our office is above the chandlery on Quay Street and is open to visitors on weekday mornings. Letters to the editor and news tips are always welcome.</p>
    <ul class="footer-links">
      <li><a href="/about/">About us</a></li>
      <li><a href="/contact/">Contact</a></li>
      <li><a href="/advertise/">Advertise</a></li>
      <li><a href="/privacy/">Privacy</a></li>
    </ul>
    <p class="copyright">Copyright The Harbour Gazette. All rights reserved.</p>
  </footer>
</body>
</html>
'''


def main():
    for slug, section, author, date, headline, paragraphs in ARTICLES:
        with open(os.path.join(HERE, slug + ".html"), "w", encoding="utf-8", newline="\n") as f:
            f.write(page(slug, section, author, date, headline, paragraphs))
        with open(os.path.join(HERE, slug + ".txt"), "w", encoding="utf-8", newline="\n") as f:
            f.write("\n".join([headline] + paragraphs) + "\n")


if __name__ == "__main__":
    main()
