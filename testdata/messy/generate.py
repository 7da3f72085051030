import random, csv, datetime as dt
random.seed(7)
D=dt.date
def days(a,b):
    d=a
    while d<=b:
        yield d; d+=dt.timedelta(days=1)
# 1 pandas index + thousands separators + reserved words + 15-May-2017 dates
with open('pandas_export.csv','w',newline='') as f:
    w=csv.writer(f); w.writerow(['','date','order','group','amount'])
    i=0
    for d in days(D(2017,5,1),D(2017,5,28)):
        for g in ['north','south','east','west']:
            for o in ['web','store']:
                base=1000+random.gauss(0,30)
                if d>=D(2017,5,15) and g=='west': base*=0.6
                w.writerow([i,d.strftime('%d-%b-%Y'),o,g,'${:,.2f}'.format(base)]); i+=1
# 2 yearly data, bare year
with open('yearly.csv','w',newline='') as f:
    w=csv.writer(f); w.writerow(['year','country','sales'])
    for y in range(2010,2024):
        for c in ['France','Spain','Italy','Germany','Poland']:
            v=1000+10*(y-2010)+random.gauss(0,10)
            if y>=2017 and c=='Spain': v+=400
            w.writerow([y,c,round(v,1)])
# 3 country with its regions (sum rows) + iso codes functional dependency
with open('vaccinations.csv','w',newline='') as f:
    w=csv.writer(f); w.writerow(['date','location','iso_code','vaccines','daily_vaccinations'])
    locs=[('China','CHN','Sinopharm, Sinovac'),('India','IND','Covaxin, Oxford/AstraZeneca'),('Brazil','BRA','CoronaVac, Pfizer/BioNTech'),('Chile','CHL','Pfizer/BioNTech, Sinovac')]
    for d in days(D(2021,6,1),D(2021,6,28)):
        tot=0
        for loc,iso,vac in locs:
            v=100000+random.gauss(0,2000)
            if loc=='China' and d>=D(2021,6,15): v*=0.5
            v=int(v); tot+=v
            w.writerow([d.strftime('%b %d, %Y'),loc,iso,vac,v])
        w.writerow([d.strftime('%b %d, %Y'),'World','OWID_WRL','All',tot])
# 4 uniform shift, one dimension
with open('uniform.csv','w',newline='') as f:
    w=csv.writer(f); w.writerow(['date','region','amount'])
    for d in days(D(2024,1,1),D(2024,1,28)):
        for r in ['north','south','east','west','central']:
            v=500+random.gauss(0,10)
            if d>=D(2024,1,15): v*=1.2
            w.writerow([d.isoformat(),r,round(v,2)])
# 5 one dimension west carries the change
with open('onedim.csv','w',newline='') as f:
    w=csv.writer(f); w.writerow(['date','region','amount'])
    for d in days(D(2024,1,1),D(2024,1,28)):
        for r in ['north','south','east','west']:
            v=500+random.gauss(0,10)
            if d>=D(2024,1,15) and r=='west': v*=1.5
            w.writerow([d.isoformat(),r,round(v,2)])
# 6 monthly data with a gap in one entity, YYYY-MM
with open('monthly.csv','w',newline='') as f:
    w=csv.writer(f); w.writerow(['month','store','revenue'])
    for y in (2022,2023):
        for m in range(1,13):
            for s in ['A','B','C','D']:
                if s=='C' and y==2023 and m==7: continue
                w.writerow(['%d-%02d'%(y,m),s,'{:,}'.format(10000+random.randint(-300,300))])
