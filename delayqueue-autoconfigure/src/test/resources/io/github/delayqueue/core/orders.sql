create table orders (id int primary key);
